import { callProvider } from './call.js';
import { DEFAULT_BASE_URLS, PROVIDER_ENV, callContext, requireSetting, resolve, type ProviderOptions } from './config.js';
import { providerError } from './errors.js';
import { ProviderPool } from './pool.js';
import type { EmbedRequest, EmbedResult, Provider } from './types.js';

/** watsonx.ai REST API version date sent with every call. */
export const WATSONX_API_VERSION = '2024-05-01';

/** A non-2xx HTTP answer, shaped like the SDK errors `classifyError` reads. */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

async function failIfNotOk(res: Response, what: string, status = res.status): Promise<void> {
  if (res.ok) return;
  const body = (await res.text().catch(() => '')).slice(0, 400);
  throw new HttpStatusError(status, res.headers, `${what}: HTTP ${res.status}${body ? ` ${body}` : ''}`);
}

/**
 * The IBM watsonx.ai embeddings provider (embedder subtype `ibm`). watsonx.ai is two REST calls
 * (an IAM token exchange, then `/ml/v1/text/embeddings`), made with `fetch`: the official
 * `@ibm-cloud/watsonx-ai` SDK would add axios and a second retry layer for no gain. The token is
 * cached until a minute before it expires. Inputs are never truncated (`truncate_input_tokens` is
 * not sent), so an over-long input is a provider error, not a silent cut.
 *
 * @example
 * ```ts
 * const p = createWatsonxProvider({ apiKey, projectId, baseURL: 'https://us-south.ml.cloud.ibm.com' });
 * const { vectors } = await p.embed!({ model: 'ibm/slate-125m-english-rtrvr-v2', inputs: ['hello'] });
 * ```
 */
export function createWatsonxProvider(opts: ProviderOptions = {}): Provider {
  const env = PROVIDER_ENV.ibm;
  const apiKey = resolve(opts, opts.apiKey, env.apiKey);
  const baseURL = (resolve(opts, opts.baseURL, env.baseURL) ?? DEFAULT_BASE_URLS.ibm).replace(/\/+$/, '');
  const iamURL = (resolve(opts, opts.iamURL, env.iamURL) ?? DEFAULT_BASE_URLS.ibmIam).replace(/\/+$/, '');
  const projectId = resolve(opts, opts.projectId, env.projectId);
  const spaceId = resolve(opts, opts.spaceId, env.spaceId);
  const pool = opts.pool ?? new ProviderPool(opts.clock);
  let token: { value: string; expiresAt: number } | undefined;
  // Access tokens join the redaction list as they are issued (the context keeps this array).
  const secrets: Array<string | undefined> = [apiKey];
  const ctx = callContext('ibm', opts, pool, [apiKey], secrets);

  let exchange: Promise<string> | undefined;
  // Concurrent calls share one token exchange instead of each asking IAM; it is bounded by the
  // attempt timeout rather than by one caller's signal, so one caller's cancel fails no other.
  const accessToken = (): Promise<string> => {
    if (token && token.expiresAt - 60_000 > Date.now()) return Promise.resolve(token.value);
    exchange ??= fetchToken(AbortSignal.timeout(ctx.policy.timeoutMs)).finally(() => {
      exchange = undefined;
    });
    return exchange;
  };

  const fetchToken = async (signal: AbortSignal): Promise<string> => {
    const now = Date.now();
    const key = requireSetting('ibm', apiKey, 'api_key', env.apiKey);
    const res = await fetch(`${iamURL}/identity/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'urn:ibm:params:oauth:grant-type:apikey', apikey: key }).toString(),
      signal,
    });
    // IAM answers 400 for an unknown key: that is a credentials problem, not a bad request.
    await failIfNotOk(res, 'IBM Cloud IAM token exchange', res.status === 400 ? 401 : res.status);
    const json = (await res.json()) as { access_token?: unknown; expires_in?: unknown; expiration?: unknown };
    if (typeof json.access_token !== 'string') throw providerError('PROVIDER_ERROR', 'IBM Cloud IAM returned no access_token', { provider: 'ibm' });
    const expiresAt =
      typeof json.expiration === 'number' ? json.expiration * 1000 : now + (typeof json.expires_in === 'number' ? json.expires_in : 3600) * 1000;
    token = { value: json.access_token, expiresAt };
    secrets.push(json.access_token);
    return json.access_token;
  };

  const embed = async (req: EmbedRequest): Promise<EmbedResult> => {
    const scope = projectId ? { project_id: projectId } : spaceId ? { space_id: spaceId } : undefined;
    if (!scope) requireSetting('ibm', undefined, 'project_id (or space_id)', [...env.projectId, ...env.spaceId]);
    return callProvider(
      ctx,
      { operation: 'embeddings', model: req.model, tokens: req.estimatedTokens ?? 0, ...(req.signal ? { signal: req.signal } : {}) },
      async (signal) => {
        const bearer = await accessToken();
        const res = await fetch(`${baseURL}/ml/v1/text/embeddings?version=${WATSONX_API_VERSION}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ inputs: req.inputs, model_id: req.model, ...scope }),
          signal,
        });
        if (res.status === 401) token = undefined;
        await failIfNotOk(res, 'watsonx.ai embeddings');
        const json = (await res.json()) as { results?: Array<{ embedding?: unknown }>; input_token_count?: unknown };
        const vectors = (json.results ?? []).map((r) => r.embedding);
        if (vectors.length !== req.inputs.length || !vectors.every((v): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
          throw providerError('PROVIDER_ERROR', `ibm embeddings returned ${vectors.length} vectors for ${req.inputs.length} inputs`, {
            provider: 'ibm',
            model: req.model,
          });
        }
        const tokens = typeof json.input_token_count === 'number' ? json.input_token_count : undefined;
        return { value: { vectors, usage: { inputTokens: tokens ?? 0, outputTokens: 0 } }, ...(tokens === undefined ? {} : { tokens }) };
      },
    );
  };

  return { name: 'ibm', embed };
}

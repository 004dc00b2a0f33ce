import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createWatsonxProvider } from '../../src/providers/watsonx.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { fakeVector, watsonxWire } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

const KEY = 'ibm-cloud-apikey-TEST-0123456789abcdef';
const TOKEN = 'iam-access-token-0123456789';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ibm (watsonx.ai) provider', () => {
  it('exchanges the API key for an IAM token once, then embeds with it', async () => {
    server = await startLoopbackServer(watsonxWire(() => 768, TOKEN));
    const p = createWatsonxProvider({ apiKey: KEY, baseURL: server.url, iamURL: server.url, projectId: 'proj-1' });
    const a = await p.embed!({ model: 'ibm/slate-125m-english-rtrvr-v2', inputs: ['one two', 'three'] });
    const b = await p.embed!({ model: 'ibm/slate-125m-english-rtrvr-v2', inputs: ['four'] });
    expect(a.vectors).toEqual([fakeVector('one two', 768), fakeVector('three', 768)]);
    expect(b.vectors).toEqual([fakeVector('four', 768)]);
    expect(a.usage.inputTokens).toBe(3);
    expect(server.requests.map((r) => r.path)).toEqual(['/identity/token', '/ml/v1/text/embeddings', '/ml/v1/text/embeddings']);
    const token = server.requests[0]!;
    expect(token.body).toBe(`grant_type=urn%3Aibm%3Aparams%3Aoauth%3Agrant-type%3Aapikey&apikey=${KEY}`);
    const embed = server.requests[1]!;
    expect(embed.query.get('version')).toBe('2024-05-01');
    expect(embed.json).toEqual({ inputs: ['one two', 'three'], model_id: 'ibm/slate-125m-english-rtrvr-v2', project_id: 'proj-1' });
  });

  it('retries a 429 with Retry-After', async () => {
    server = await startLoopbackServer(watsonxWire(() => 384, TOKEN));
    server.inject(
      { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ code: 'rate_limit', message: 'slow' }] } },
      1,
      (r) => r.path === '/ml/v1/text/embeddings',
    );
    const { clock, sleeps } = recordingClock();
    const p = createWatsonxProvider({ apiKey: KEY, baseURL: server.url, iamURL: server.url, spaceId: 'space-1', clock });
    const r = await p.embed!({ model: 'sentence-transformers/all-minilm-l6-v2', inputs: ['x'] });
    expect(r.vectors[0]).toEqual(fakeVector('x', 384));
    expect(sleeps).toEqual([1000]);
  });

  it('reports an unknown key as PROVIDER_AUTH without echoing it', async () => {
    server = await startLoopbackServer(watsonxWire(() => 384, TOKEN));
    server.inject(
      { status: 400, body: { errorCode: 'BXNIM0415E', errorMessage: `Provided API key could not be found: ${KEY}` } },
      1,
      (r) => r.path === '/identity/token',
    );
    const p = createWatsonxProvider({ apiKey: KEY, baseURL: server.url, iamURL: server.url, projectId: 'p' });
    const e = await caught(p.embed!({ model: 'sentence-transformers/all-minilm-l6-v2', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_AUTH');
    expect(`${(e as Error).message}${JSON.stringify(e)}${String((e as Error).cause)}`).not.toContain(KEY);
  });

  it('needs a project or space id, naming the environment variables', async () => {
    const p = createWatsonxProvider({ apiKey: KEY, env: {} });
    const e = await caught(p.embed!({ model: 'sentence-transformers/all-minilm-l6-v2', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((e as Error).message).toContain('WATSONX_AI_PROJECT_ID');
  });
});

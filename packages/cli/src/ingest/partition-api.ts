import { elementsFromJSON, errorMessage, isQuarryError, QuarryError, type Element, type ErrorCode } from '@quarry/core';
import { retrying } from '@quarry/core/concurrency';

/** Path of the Unstructured API's partition endpoint under its base URL. */
export const LEGACY_PARTITION_PATH = '/general/v0/general';

/** How to reach the endpoint. */
export interface PartitionApiOptions {
  /** The endpoint URL, or its base URL (`{base_url}` gets `/general/v0/general` appended). */
  endpoint: string;
  /** Sent as the `unstructured-api-key` header; never printed. */
  apiKey: string;
  /** Form fields besides `files`: `strategy` and any other form field of the Unstructured API. */
  fields: Record<string, string | string[]>;
  /** Retries of 429/502/503/504 answers and failed connections (default 3). */
  retries?: number;
  /** First back-off delay in ms (default 500); it doubles per retry, with jitter, up to 30 s. */
  retryInitialMs?: number;
}

/** The full endpoint URL: a base URL gets the legacy path appended; a URL ending in it is kept. */
export function partitionEndpointUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return trimmed.endsWith(LEGACY_PARTITION_PATH) ? trimmed : `${trimmed}${LEGACY_PARTITION_PATH}`;
}

/** `detail` of a FastAPI error body: a string, or the messages of a validation error list. */
function detailOf(text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ');
    }
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300);
}

/**
 * The code of a failed answer, mapped as the Python client's `wrap_error` maps it: 401/403
 * `PARTITION_API_AUTH_FAILED`, 402 `PARTITION_API_QUOTA_EXCEEDED`, 422 and other 4xx
 * `PARTITION_API_REJECTED`, 5xx (and no answer) `PARTITION_API_UNAVAILABLE`.
 */
function codeFor(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'PARTITION_API_AUTH_FAILED';
  if (status === 402) return 'PARTITION_API_QUOTA_EXCEEDED';
  if (status >= 500) return 'PARTITION_API_UNAVAILABLE';
  return 'PARTITION_API_REJECTED';
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);
const RETRY_MAX_MS = 30_000;

/**
 * Partitions one file with the legacy endpoint: `POST {endpoint}` as `multipart/form-data` with one
 * `files` part and the form fields, header `unstructured-api-key`. Answers 429/502/503/504 (and no
 * answer) are retried with back-off; other failures are coded errors carrying the endpoint's
 * `detail`, never the key.
 */
export async function partitionByApi(bytes: Uint8Array, filename: string, options: PartitionApiOptions, signal?: AbortSignal): Promise<Element[]> {
  const url = partitionEndpointUrl(options.endpoint);
  const once = async (): Promise<Element[]> => {
    const form = new FormData();
    form.append('files', new Blob([bytes]), filename);
    for (const [k, v] of Object.entries(options.fields)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, item);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'unstructured-api-key': options.apiKey, accept: 'application/json' },
        body: form,
        ...(signal ? { signal } : {}),
      });
    } catch (e) {
      throw new Unanswered(e);
    }
    const text = await res.text();
    if (res.ok) {
      try {
        return elementsFromJSON(JSON.parse(text), { source: `${url} (${filename})` });
      } catch (e) {
        throw new QuarryError(
          'PARTITION_API_UNAVAILABLE',
          `partition endpoint ${url} answered ${filename} with something other than element JSON: ${errorMessage(e)}`,
          { cause: e, details: { endpoint: url, filename } },
        );
      }
    }
    const detail = detailOf(text).split(options.apiKey).join('***');
    throw new QuarryError(codeFor(res.status), `partition endpoint ${url} answered ${res.status} for ${filename}: ${detail}`, {
      details: { endpoint: url, filename, status: res.status },
    });
  };
  try {
    return await retrying(once, {
      retries: options.retries ?? 3,
      baseDelayMs: options.retryInitialMs ?? 500,
      maxDelayMs: RETRY_MAX_MS,
      retryable: (e) => e instanceof Unanswered || (isQuarryError(e) && RETRY_STATUS.has(Number(e.details?.status))),
      giveUp: (e) =>
        e instanceof Unanswered
          ? new QuarryError('PARTITION_API_UNAVAILABLE', `partition endpoint ${url} did not answer for ${filename}: ${errorMessage(e.cause)}`, {
              cause: e.cause,
              details: { endpoint: url, filename },
            })
          : e,
      ...(signal ? { signal } : {}),
    });
  } catch (e) {
    if (signal?.aborted) throw new QuarryError('JOB_ABORTED', `partitioning ${filename} was cancelled`, { cause: e });
    throw e;
  }
}

/** A request that got no answer (refused, reset, DNS): worth another attempt. */
class Unanswered extends Error {
  constructor(cause: unknown) {
    super(errorMessage(cause), { cause });
  }
}

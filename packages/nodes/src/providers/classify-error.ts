import { headerValue, retryAfterFromHeaders } from './retry-after.js';

/** What went wrong with one attempt, independent of the SDK that reported it. */
export type FailureKind = 'rate_limited' | 'server' | 'connection' | 'timeout' | 'auth' | 'bad_request' | 'other';

/** One failed attempt, classified. */
export interface Failure {
  kind: FailureKind;
  status?: number;
  /** Wait the provider asked for (Retry-After, retry-after-ms, Google RetryInfo), in ms. */
  retryAfterMs?: number;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const CONNECTION_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError', 'FetchError', 'TimeoutError']);

function statusOf(e: Record<string, unknown>): number | undefined {
  for (const v of [e.status, (e.$metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode, e.statusCode]) {
    if (typeof v === 'number' && v >= 100 && v < 600) return v;
  }
  return undefined;
}

function headersOf(e: Record<string, unknown>): unknown {
  return e.headers ?? (e.$response as { headers?: unknown } | undefined)?.headers;
}

/** Google APIs put the wait in the error body: `{"@type": "...RetryInfo", "retryDelay": "37s"}`. */
function googleRetryDelay(message: string): number | undefined {
  const m = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function isConnectionError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const r = e as Record<string, unknown>;
  if (typeof r.code === 'string' && CONNECTION_CODES.has(r.code)) return true;
  if (typeof r.name === 'string' && CONNECTION_NAMES.has(r.name)) return true;
  if (r.name === 'TypeError' && r.message === 'fetch failed') return true;
  return isConnectionError(r.cause, depth + 1);
}

/** Classifies an error thrown by any of the provider SDKs (or by fetch) by its shape. */
export function classifyError(e: unknown, now: number = Date.now()): Failure {
  if (!e || typeof e !== 'object') return { kind: 'other' };
  const r = e as Record<string, unknown>;
  const status = statusOf(r);
  const message = typeof r.message === 'string' ? r.message : '';
  const headers = headersOf(r);
  let retryAfterMs = retryAfterFromHeaders(headers, now);
  if (retryAfterMs === undefined && message) retryAfterMs = googleRetryDelay(message);
  const base = { ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status !== undefined) {
    if (status === 429) return { kind: 'rate_limited', ...base };
    if (status === 408) return { kind: 'timeout', ...base };
    if (status >= 500) return { kind: 'server', ...base };
    if (status === 401 || status === 403) return { kind: 'auth', ...base };
    if (status === 400 || status === 404 || status === 413 || status === 422) return { kind: 'bad_request', ...base };
    return { kind: 'other', ...base };
  }
  // AWS throttling without an HTTP status (e.g. from the event stream) still names itself.
  if (r.name === 'ThrottlingException' || r.name === 'TooManyRequestsException') return { kind: 'rate_limited', ...base };
  if (isConnectionError(e)) return { kind: 'connection', ...base };
  return { kind: 'other', ...base };
}

/** True for failures worth another attempt: 429, 5xx, 408, timeouts, dropped connections. */
export function isRetryable(f: Failure): boolean {
  return f.kind === 'rate_limited' || f.kind === 'server' || f.kind === 'connection' || f.kind === 'timeout';
}

/** The request id a provider returned, for support tickets (never a secret). */
export function requestIdOf(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const r = e as Record<string, unknown>;
  if (typeof r.requestID === 'string') return r.requestID;
  const meta = r.$metadata as { requestId?: unknown } | undefined;
  if (typeof meta?.requestId === 'string') return meta.requestId;
  return headerValue(headersOf(r), 'x-request-id') ?? headerValue(headersOf(r), 'request-id');
}

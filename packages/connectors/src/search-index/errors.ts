import { errorMessage, QuarryError } from '@quarry/core';
import type { ResolvedAuth } from './auth.js';
import { redact } from './auth.js';

/** What an error message may say about the connection: never a secret. */
export interface ConnectionFacts {
  /** Cluster URLs, or `cloud id <name>`. */
  target: string;
  auth: ResolvedAuth;
  /** `system CAs`, `CA file <path>`, `certificate fingerprint`, ... */
  tls: string;
  secrets: readonly string[];
}

interface ElasticErrorShape {
  name?: string;
  message?: string;
  meta?: { statusCode?: number; body?: unknown };
}

/** HTTP status of a client error, when the cluster answered. */
export function statusOf(e: unknown): number | undefined {
  const status = (e as ElasticErrorShape | undefined)?.meta?.statusCode;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** `type: reason` of an Elasticsearch error body, or the client's message. */
export function reasonOf(e: unknown): string {
  const body = (e as ElasticErrorShape | undefined)?.meta?.body as { error?: { type?: string; reason?: string } | string } | undefined;
  const err = body?.error;
  if (err && typeof err === 'object') return [err.type, err.reason].filter(Boolean).join(': ');
  if (typeof err === 'string') return err;
  return errorMessage(e);
}

/**
 * Turns whatever the client threw into a coded {@link QuarryError} naming the cluster, the operation
 * and the authentication form, with every secret scrubbed from the quoted cause:
 * `SEARCH_INDEX_AUTH_FAILED` for 401/403, `SEARCH_INDEX_UNREACHABLE` for no answer, a TLS failure or a
 * server that is not Elasticsearch, `SEARCH_INDEX_REQUEST_FAILED` for any other error answer.
 */
export function searchIndexError(e: unknown, action: string, facts: ConnectionFacts, details: Record<string, unknown> = {}): QuarryError {
  const status = statusOf(e);
  const name = (e as ElasticErrorShape | undefined)?.name ?? '';
  const reason = redact(reasonOf(e), facts.secrets);
  const base = { target: facts.target, auth_form: facts.auth.form, ...details };
  if (status === 401 || status === 403) {
    return new QuarryError(
      'SEARCH_INDEX_AUTH_FAILED',
      `${action} at ${facts.target}: the cluster rejected authentication with ${facts.auth.description} (auth form ${facts.auth.form}, HTTP ${status}): ${reason}`,
      { details: { ...base, status } },
    );
  }
  if (status === undefined || name === 'ProductNotSupportedError') {
    const what = name === 'ProductNotSupportedError' ? 'the server is not Elasticsearch' : 'no answer';
    return new QuarryError('SEARCH_INDEX_UNREACHABLE', `${action} at ${facts.target}: ${what} (auth form ${facts.auth.form}, TLS ${facts.tls}): ${reason}`, {
      details: base,
    });
  }
  return new QuarryError('SEARCH_INDEX_REQUEST_FAILED', `${action} at ${facts.target} failed with HTTP ${status}: ${reason}`, { details: { ...base, status } });
}

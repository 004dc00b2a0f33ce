/** The fake cluster's data shapes, errors and small helpers. */

export type Json = Record<string, unknown>;

/** A field of a mapping, as Elasticsearch stores it. */
export interface FakeFieldMapping {
  type?: string;
  properties?: Record<string, FakeFieldMapping>;
  fields?: Record<string, FakeFieldMapping>;
  dims?: number;
  similarity?: string;
  index?: boolean;
  enabled?: boolean;
  dynamic?: boolean | string;
  ignore_above?: number;
  [key: string]: unknown;
}

export interface StoredDoc {
  source: Json;
  version: number;
  seqNo: number;
}

/** One index of the fake cluster. */
export interface FakeIndex {
  name: string;
  uuid: string;
  mappings: { dynamic?: boolean | string; properties: Record<string, FakeFieldMapping>; [k: string]: unknown };
  /** What a realtime GET sees. */
  live: Map<string, StoredDoc>;
  /** What search sees: the state at the last refresh. */
  searchable: Map<string, StoredDoc>;
  /** Term postings of the searchable state, per field, built on first use after a refresh. */
  postings?: Map<string, Map<string, Set<string>>>;
}

export interface Pit {
  indices: string[];
  docs: Array<{ index: string; id: string; doc: StoredDoc }>;
  expiresAt: number;
}

/** Credentials the fake accepts; when none are given, it requires no authentication. */
export interface FakeCredentials {
  /** Encoded API keys (Base64 of `id:key`). */
  apiKeys?: string[];
  users?: Record<string, string>;
  bearerTokens?: string[];
}

/** Options of {@link FakeElasticsearch}. */
export interface FakeElasticsearchOptions {
  credentials?: FakeCredentials;
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /** Automatic refresh period; 0 disables it (only explicit refreshes then). Default 1000, as Elasticsearch. */
  refreshIntervalMs?: number;
}

/**
 * A fault for the next requests that match: an HTTP error status, or a dropped connection either
 * before the request is applied (`drop-before`) or after it is applied, its answer lost (`drop-after`).
 */
export interface FakeFault {
  method: string;
  path: RegExp;
  /** Matched against the request body when given (bulk index vs bulk delete). */
  body?: RegExp;
  fault: number | 'drop-before' | 'drop-after';
  times: number;
}

/** One request as the fake received it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** `ApiKey`, `Basic`, `Bearer` or undefined. */
  authScheme?: string;
  body: string;
}

export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
    readonly extra: Json = {},
  ) {
    super(reason);
  }

  body(): Json {
    const cause = { type: this.type, reason: this.message, ...this.extra };
    return { error: { root_cause: [cause], ...cause }, status: this.status };
  }
}

export const indexNotFound = (name: string) =>
  new EsError(404, 'index_not_found_exception', `no such index [${name}]`, {
    'resource.type': 'index_or_alias',
    'resource.id': name,
    index_uuid: '_na_',
    index: name,
  });

export function parseDuration(s: string | undefined, fallback: number): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(s ?? '');
  if (!m) return fallback;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms'] ?? 1;
  return Number(m[1]) * unit;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

import { isQuarryError, type ErrorCode, type QuarryError } from '@quarry/core';
import { scrubValue } from '@quarry/core/service';
import { diskWriteError } from './disk-errors.js';

/** One entry of a 422 `detail` list, FastAPI style. */
export interface ValidationDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** What the service answers on an error: `{"detail": ...}` with a status. */
export interface HttpError {
  status: number;
  body: { detail: string | ValidationDetail[]; code?: string };
}

/** HTTP status of each error code the service raises; anything else is a 500. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  NOT_FOUND: 404,
  CONNECTOR_IN_USE: 409,
  JOB_FINISHED: 409,
  WORKFLOW_BUSY: 409,
  WORKFLOW_INACTIVE: 409,
  WORKFLOW_NOT_UPDATABLE: 409,
  INPUT_TOO_LARGE: 413,
  MULTIPART_INVALID: 400,
  REQUEST_TIMEOUT: 408,
  SERVER_BUSY: 503,
  STORE_UNAVAILABLE: 503,
  DISK_FULL: 507,
  INVALID_ARGUMENT: 422,
  REQUEST_INVALID: 422,
  SETTINGS_INVALID: 422,
  WORKFLOW_INVALID: 422,
} satisfies Partial<Record<ErrorCode, number>>;

/** The `loc` of a JSON pointer: `/workflow_nodes/0/settings` in the body is `["body", "workflow_nodes", 0, "settings"]`. */
export function pointerToLoc(location: string, pointer: string): Array<string | number> {
  const segments = pointer
    ? pointer
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s))
    : [];
  return [location, ...segments];
}

/** The 422 detail list of problems `{code, path, message}`. */
export function problemsDetail(location: string, problems: ReadonlyArray<{ code: string; path: string; message: string }>): ValidationDetail[] {
  return problems.map((p) => ({ loc: pointerToLoc(location, p.path), msg: p.message, type: p.code }));
}

/** The HTTP form of a QuarryError: problem lists become 422 detail lists, other messages a detail string. */
export function quarryHttpError(e: QuarryError): HttpError {
  const status = STATUS_BY_CODE[e.code] ?? 500;
  const problems = e.details.problems;
  if (status === 422 && Array.isArray(problems)) {
    const location = typeof e.details.location === 'string' ? e.details.location : 'body';
    return { status, body: { detail: problemsDetail(location, problems as Array<{ code: string; path: string; message: string }>) } };
  }
  if (status === 500) return { status, body: { detail: 'Internal Server Error' } };
  // Load, limit and storage answers name their code: clients tell a retryable 503 from another.
  return { status, body: CODED_STATUSES.has(status) ? { detail: e.message, code: e.code } : { detail: e.message } };
}

// Statuses whose body carries the error code beside the detail.
const CODED_STATUSES = new Set([408, 413, 503, 507]);

// busboy reports a malformed multipart body with uncoded errors; these are their messages.
const BUSBOY_PARSE_ERRORS: ReadonlyArray<[RegExp, string]> = [
  [/^Unexpected end of multipart data$/, 'the body ends before the closing boundary (truncated, or the boundary of the Content-Type is not in it)'],
  [/terminated early due to unexpected end of multipart data$/, 'the body ends inside a part, before the closing boundary'],
  [/^Multipart: Boundary not found$/, 'no boundary parameter in the Content-Type'],
  [/^The needle cannot/, 'the boundary of the Content-Type is empty or too long'],
];

/** The 400 detail of one of busboy's parse errors, or undefined for any other error. */
export function multipartParseDetail(e: unknown): string | undefined {
  if (!(e instanceof Error) || typeof (e as { code?: unknown }).code === 'string') return undefined;
  const hit = BUSBOY_PARSE_ERRORS.find(([re]) => re.test(e.message));
  return hit ? `malformed multipart body: ${hit[1]}` : undefined;
}

/**
 * Maps anything thrown by a route to a status and a body; `undefined` means an unexpected error
 * (500). A URL in the detail (a connector's host echoed by a message) has its password masked.
 */
export function httpErrorOf(e: unknown): HttpError | undefined {
  const h = mapError(e);
  return h && { status: h.status, body: scrubValue(h.body, []) };
}

function mapError(e: unknown): HttpError | undefined {
  if (isQuarryError(e)) {
    const h = quarryHttpError(e);
    return h.status === 500 ? undefined : h;
  }
  const err = e as { code?: string; statusCode?: number; message?: string };
  // Fastify's body parsers: a body that is not JSON is reported like FastAPI does.
  if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_')) {
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, body: { detail: err.message ?? 'Unsupported Media Type' } };
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: { detail: 'Request body is too large' } };
    return { status: 422, body: { detail: [{ loc: ['body'], msg: `JSON decode error: ${err.message ?? 'invalid JSON'}`, type: 'json_invalid' }] } };
  }
  if (err.statusCode === 400 && err instanceof SyntaxError) {
    return { status: 422, body: { detail: [{ loc: ['body'], msg: `JSON decode error: ${err.message}`, type: 'json_invalid' }] } };
  }
  // A write that found the disk full, wherever it came from (staging, job files).
  const full = diskWriteError(e, 'the data directory');
  if (full) return quarryHttpError(full);
  const multipart = multipartParseDetail(e);
  if (multipart) return { status: 400, body: { detail: multipart } };
  // @fastify/multipart answers 406 for these; 415 and 422 are what they are.
  if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return { status: 415, body: { detail: 'the request is not multipart/form-data' } };
  if (err.code === 'FST_INVALID_JSON_FIELD_ERROR') {
    return {
      status: 422,
      body: { detail: [{ loc: ['body'], msg: 'JSON decode error: a multipart field declared as application/json is not valid JSON', type: 'json_invalid' }] },
    };
  }
  // @fastify/multipart limits and malformed multipart bodies.
  if (typeof err.code === 'string' && err.code.startsWith('FST_') && typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    const detail =
      err.code === 'FST_REQ_FILE_TOO_LARGE'
        ? 'an uploaded file is larger than the size limit'
        : err.code === 'FST_FILES_LIMIT'
          ? 'too many files in one request'
          : (err.message ?? 'bad request');
    return { status: err.statusCode, body: { detail } };
  }
  return undefined;
}

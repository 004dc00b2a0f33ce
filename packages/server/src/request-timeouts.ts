import { STATUS_CODES, type ServerOptions as HttpServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { quarryError } from '@quarry/core';

/** How long a client may take to send a request. */
export interface RequestTimeoutOptions {
  /** All request headers must arrive within this (ms); default 30 s. */
  headersTimeoutMs?: number;
  /** A request body that receives no byte for this long (ms) is cut with 408; default 30 s. */
  bodyTimeoutMs?: number;
  /** The whole request (headers and body) must arrive within this (ms); default 5 minutes (a slow upload of the size limit). */
  requestTimeoutMs?: number;
  /**
   * How often Node checks the header and request timeouts (ms); default 5 s. Node's own default is
   * 30 s, which would let a stalled request live up to 30 s past its limit.
   */
  checkIntervalMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUTS: Required<RequestTimeoutOptions> = {
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  requestTimeoutMs: 300_000,
  checkIntervalMs: 5_000,
};

/** The options with defaults filled in, checked: each a positive integer, headers within the request time. */
export function requestTimeouts(options: RequestTimeoutOptions = {}): Required<RequestTimeoutOptions> {
  const t = {
    ...DEFAULT_REQUEST_TIMEOUTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as Required<RequestTimeoutOptions>;
  for (const [name, value] of Object.entries(t)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`timeout option ${name} must be a positive integer of milliseconds, got ${value}`);
  }
  // Node refuses a header timeout longer than the request timeout.
  t.headersTimeoutMs = Math.min(t.headersTimeoutMs, t.requestTimeoutMs);
  return t;
}

/** The options of Node's `http.createServer` that enforce the header and request timeouts. */
export function httpTimeoutOptions(t: Required<RequestTimeoutOptions>): HttpServerOptions {
  return { headersTimeout: t.headersTimeoutMs, requestTimeout: t.requestTimeoutMs, connectionsCheckingInterval: t.checkIntervalMs };
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises before a request reaches a route. A header or
 * request timeout answers 408 `{"detail", "code": "REQUEST_TIMEOUT"}` naming the limit; other
 * parse errors keep Fastify's 400 and 431; the connection is then closed.
 */
export function clientErrorHandler(t: Required<RequestTimeoutOptions>): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let status: number;
    let body: Record<string, unknown>;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      body = {
        detail: `The request did not arrive in time: headers within ${t.headersTimeoutMs / 1000} s, the whole request within ${t.requestTimeoutMs / 1000} s.`,
        code: 'REQUEST_TIMEOUT',
      };
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      body = { detail: 'The request headers are too large.' };
    } else {
      status = 400;
      body = { detail: 'Malformed HTTP request.' };
    }
    const text = JSON.stringify(body);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${text}`,
      );
    }
    socket.destroy(err);
  };
}

/** The error of a body that stalled: `REQUEST_TIMEOUT` (408). */
export function bodyStalled(ms: number): Error {
  return quarryError('REQUEST_TIMEOUT', `The request body stalled: no byte arrived for ${ms / 1000} s.`, { details: { body_timeout_ms: ms } });
}

/**
 * Watches a request body for stalls: `stalled` rejects when no `touch()` came for `ms`. `race(p)`
 * awaits `p` or the stall, whichever comes first; a promise that lost the race has its rejection
 * swallowed (the body it read is abandoned with the connection).
 */
export class BodyStallWatch {
  private timer: NodeJS.Timeout | undefined;
  private fail!: (e: Error) => void;
  readonly stalled: Promise<never>;

  constructor(private readonly ms: number) {
    this.stalled = new Promise<never>((_, reject) => (this.fail = reject));
    this.stalled.catch(() => undefined);
    this.touch();
  }

  /** A byte arrived. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(bodyStalled(this.ms)), this.ms);
  }

  /** The body is read (or abandoned): no more timer. */
  stop(): void {
    clearTimeout(this.timer);
  }

  race<T>(p: Promise<T>): Promise<T> {
    p.catch(() => undefined);
    return Promise.race([p, this.stalled]);
  }
}

/**
 * A loopback HTTP server (127.0.0.1, random port) for driving the vendors' SDKs in tests. It
 * records every request, can inject faults ahead of normal answers (429 with Retry-After, 5xx,
 * a request that never answers), and otherwise answers with the handler's response. With
 * `{ http2: true }` it speaks cleartext HTTP/2 (the Bedrock runtime SDK's default transport).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path with query string. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** Set when the client closed the connection before the server answered. */
  aborted: boolean;
}

/** An answer. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Something to do instead of the normal answer. */
export type Fault = Reply | { hang: true };

/** Produces the normal answer of a request. */
export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Queues faults; each is used by the next request whose path matches (default: any). */
  inject(fault: Fault, times?: number, match?: (req: RecordedRequest) => boolean): void;
  /** Resolves when the server has received `n` requests in total. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The part of a response object both HTTP/1.1 and HTTP/2 servers offer. */
interface AnyResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string | Uint8Array): unknown;
  on(event: 'close', listener: () => void): unknown;
  destroy(): unknown;
}

/** The part of a request object both servers offer. */
interface AnyRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

function send(res: AnyResponse, reply: Reply): void {
  const body = reply.body === undefined ? '' : typeof reply.body === 'string' || reply.body instanceof Uint8Array ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string> = {
    ...(typeof reply.body === 'object' && !(reply.body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}),
    ...reply.headers,
  };
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** Starts a loopback server answering with `handler`. */
export async function startLoopbackServer(handler: Handler, options: { http2?: boolean } = {}): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const faults: Array<{ fault: Fault; match: (req: RecordedRequest) => boolean }> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const hanging = new Set<AnyResponse>();
  const answered = new WeakSet<AnyResponse>();

  const onRequest = (req: AnyRequest, res: AnyResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        json: parse(body),
        aborted: false,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!answered.has(res)) rec.aborted = true;
        hanging.delete(res);
      });
      for (const w of waiters.filter((x) => requests.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const i = faults.findIndex((f) => f.match(rec));
      if (i >= 0) {
        const { fault } = faults.splice(i, 1)[0]!;
        if ('hang' in fault) {
          hanging.add(res);
          return;
        }
        answered.add(res);
        send(res, fault);
        return;
      }
      Promise.resolve()
        .then(() => handler(rec))
        .then(
          (reply) => {
            answered.add(res);
            send(res, reply);
          },
          (e: unknown) => {
            answered.add(res);
            send(res, { status: 500, body: { error: { message: String(e) } } });
          },
        );
    });
  };
  const server = options.http2
    ? createHttp2Server((req: Http2ServerRequest, res: Http2ServerResponse) => onRequest(req, res))
    : createServer((req, res) => onRequest(req, res));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(fault, times = 1, match = () => true) {
      for (let i = 0; i < times; i++) faults.push({ fault, match });
    },
    received(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
    close() {
      for (const r of hanging) r.destroy();
      for (const session of sessions) session.destroy();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

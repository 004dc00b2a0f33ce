import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sleep, type Engine } from '@quarry/core';
import type { Clock, Store } from '@quarry/core/service';
import { ApiKeyRing, createServer, type QuarryServer, type ServerOptions } from '../src/index.js';

/** Repository root (for the example documents under examples/docs). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The shared corpus beside the repository. */
export const corpusDir = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');

/** Two workspaces with one key each. */
export const KEYS = { acme: 'acme-key-0123456789', beta: 'beta-key-9876543210' } as const;

/** A fresh temporary directory and its removal. */
export function tempDir(prefix = 'quarry-server-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A response as the tests see it. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any;
}

/** A running server on a random port, its log lines, and every response body it sent. */
export interface TestServer {
  server: QuarryServer;
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  logs: string[];
  responses: string[];
  /** A request with a workspace's key (or `null` for none, or any other string as the key). */
  call(method: string, pathOrUrl: string, options?: { key?: string | null; json?: unknown; form?: FormData; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

/** Starts a server listening on port 0 with the test keys, capturing its log output. */
export async function startServer(options: {
  dataDir: string;
  engine?: Engine;
  clock?: Clock;
  store?: Store;
  logs?: string[];
  responses?: string[];
  service?: ServerOptions['service'];
  partitionPool?: ServerOptions['partitionPool'];
  legacy?: ServerOptions['legacy'];
  admission?: ServerOptions['admission'];
  timeouts?: ServerOptions['timeouts'];
  legacyDeadlineMs?: number;
}): Promise<TestServer> {
  const logs = options.logs ?? [];
  const responses = options.responses ?? [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const server = await createServer({
    dataDir: options.dataDir,
    apiKeys: new ApiKeyRing(Object.entries(KEYS).map(([ws, key]) => [key, ws] as const)),
    logger: { level: 'debug', stream },
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.service ? { service: options.service } : {}),
    ...(options.partitionPool ? { partitionPool: options.partitionPool } : {}),
    ...(options.legacy ? { legacy: options.legacy } : {}),
    ...(options.admission ? { admission: options.admission } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.legacyDeadlineMs ? { legacyDeadlineMs: options.legacyDeadlineMs } : {}),
  });
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  const origin = base.replace(/\/api\/v1$/, '');
  const call: TestServer['call'] = async (method, pathOrUrl, o = {}) => {
    const url = pathOrUrl.startsWith('http')
      ? pathOrUrl
      : pathOrUrl.startsWith('/general') || pathOrUrl.startsWith('/healthcheck')
        ? origin + pathOrUrl
        : base + pathOrUrl;
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    const key = o.key === undefined ? KEYS.acme : o.key;
    if (key !== null) headers['service-api-key'] = key;
    let body: FormData | string | undefined;
    if (o.form) body = o.form;
    else if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
    }
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    responses.push(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  return { server, base, origin, logs, responses, call, close: () => server.close() };
}

/** A multipart form with files (name, content) under `field`, and text fields. */
export function form(files: Array<[string, string | Uint8Array]>, field = 'input_files', fields: Record<string, string | string[]> = {}): FormData {
  const fd = new FormData();
  for (const [name, content] of files) fd.append(field, new Blob([typeof content === 'string' ? new TextEncoder().encode(content) : content]), name);
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) fd.append(k, x);
  return fd;
}

/** Polls a job until it ends; returns its last JobInformation. */
export async function waitForJob(t: TestServer, jobId: string, key: string = KEYS.acme): Promise<any> {
  for (let i = 0; i < 3000; i++) {
    const r = await t.call('GET', `/jobs/${jobId}`, { key });
    if (r.status !== 200) throw new Error(`GET /jobs/${jobId}: ${r.status} ${r.text}`);
    if (['COMPLETED', 'FAILED', 'STOPPED'].includes(r.body.status)) return r.body;
    await sleep(20);
  }
  throw new Error(`job ${jobId} did not end`);
}

/**
 * A request with exactly these headers and body bytes, over node:http (fetch would fix up a
 * malformed multipart body or its Content-Type). The API key header is added unless given.
 */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  const body = options.body ?? '';
  const headers: Record<string, string> = { 'service-api-key': KEYS.acme, 'content-length': String(Buffer.byteLength(body)), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

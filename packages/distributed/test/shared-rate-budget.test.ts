import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { SHARED_RATE_BUDGETS_SERVICE as NODES_KEY } from '@quarry/nodes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_RATE_BUDGETS_SERVICE } from '../src/index.js';
import { redisSkipReason, startRedisServer, type RedisServer } from './support/redis-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const CHILD = path.join(here, 'support/rate-budget-child.ts');
/** 600 requests a minute: windows of one second holding 10 requests. */
const RPM = 600;
const PER_PROCESS = 30;

/** A fake OpenAI embeddings endpoint that notes when each request arrived. */
async function fakeProvider(): Promise<{ server: Server; url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push(Date.now());
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      const data = input.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: input.length, total_tokens: input.length } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

function runChild(redisUrl: string, providerUrl: string, mode: 'redis' | 'local'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, redisUrl, providerUrl, String(PER_PROCESS), mode, String(RPM)], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

/** Most requests that arrived within any `spanMs`. */
function busiest(arrivals: number[], spanMs: number): number {
  const t = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe.skipIf(redisSkipReason !== undefined)('one rate budget per provider key across worker processes (real Redis)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => redis?.stop());

  it('uses the service key the provider nodes read', () => {
    expect(SHARED_RATE_BUDGETS_SERVICE.name).toBe(NODES_KEY.name);
  });

  it('two processes on one key stay within the key budget together, and Redis never sees the key', async () => {
    const provider = await fakeProvider();
    try {
      // Window keys expire with their window: gather what Redis holds while the children run.
      const client = new Redis(redis.url);
      const seen = new Set<string>();
      let running = true;
      const watching = (async () => {
        while (running) {
          for (const k of await client.keys('*')) seen.add(k);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      try {
        await Promise.all([runChild(redis.url, provider.url, 'redis'), runChild(redis.url, provider.url, 'redis')]);
      } finally {
        running = false;
        await watching;
        await client.quit();
      }
      const { arrivals } = provider;
      expect(arrivals).toHaveLength(2 * PER_PROCESS);
      // 60 requests at 10 a second: six windows, the last one opening 5 s after the first at the earliest.
      const sorted = [...arrivals].sort((a, b) => a - b);
      expect(sorted.at(-1)! - sorted[0]!).toBeGreaterThanOrEqual(4500);
      // Within any 2 s, at most three windows' worth (two whole ones and the edge of a third).
      expect(busiest(arrivals, 2000)).toBeLessThanOrEqual(30);
      const keys = [...seen];
      expect(keys.some((k) => k.startsWith('quarry:rate:'))).toBe(true);
      expect(keys.join(' ')).not.toContain('sk-shared-budget-test');
    } finally {
      provider.server.close();
    }
  });

  it('(control) with a budget in each process, the two spend twice the key budget', async () => {
    const provider = await fakeProvider();
    try {
      await Promise.all([runChild(redis.url, provider.url, 'local'), runChild(redis.url, provider.url, 'local')]);
      // Each process's bucket starts full: all 60 go at once, three times what a shared budget lets through in 2 s.
      expect(busiest(provider.arrivals, 2000)).toBeGreaterThan(30);
    } finally {
      provider.server.close();
    }
  });
});

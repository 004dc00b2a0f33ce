import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createEngine,
  defineDestination,
  defineNode,
  definePlugin,
  defineSource,
  MemoryStateStore,
  quarryError,
  sleep,
  type Engine,
  type JobEvent,
  type JobSummary,
} from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { runDistributed, startWorker, type DistributedWorker, type WorkerOptions } from '../src/index.js';
import { KEY_PREFIX } from '../src/keys.js';
import { redisSkipReason, startRedisServer, type RedisServer } from './support/redis-server.js';
import { waitNode } from './support/slow-plugin.js';

/** Writes per record of the `counting` destination, across every engine in this process. */
const writes = new Map<string, number>();
/** Write attempts per record of the `counting` destination (failed ones included). */
const attempts = new Map<string, number>();
/** `sharedWriters` of each `prepare` of a `counting` destination. */
const preparedShared: boolean[] = [];

const countingDestination = defineDestination<{ fail_first: number }>({
  type: 'counting',
  description: 'counts writes per record; fails the first `fail_first` attempts of each',
  config: z.strictObject({ fail_first: z.number().int().min(0).default(0) }),
  create: (config) => ({
    async prepare(plan) {
      preparedShared.push(plan.sharedWriters === true);
    },
    async write({ document }) {
      const n = (attempts.get(document.record_id) ?? 0) + 1;
      attempts.set(document.record_id, n);
      if (n <= config.fail_first) throw quarryError('DESTINATION_WRITE_FAILED', `attempt ${n} of "${document.record_id}" refused`);
      writes.set(document.record_id, (writes.get(document.record_id) ?? 0) + 1);
    },
  }),
});

const listOnlySource = defineSource<{ n: number }>({
  type: 'list_only',
  description: 'documents that can be listed but not re-opened',
  config: z.strictObject({ n: z.number().int() }),
  create: (config) => ({
    async *list() {
      for (let i = 0; i < config.n; i++) {
        yield { record_id: `doc-${i}`, filename: `doc-${i}.txt`, data_source: {}, read: async () => new TextEncoder().encode(`text ${i}`) };
      }
    },
  }),
});

const textDoc = (id: string) => ({
  record_id: id,
  filename: `${id}.txt`,
  data_source: {},
  read: async () => new TextEncoder().encode(`The document ${id} says something worth keeping.`),
});

/** Polls `cond` every 20 ms for up to 5 s. */
async function until(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250 && !(await cond()); i++) await sleep(20);
}

/** Gates a `slow_list` source with `hold` waits on before listing its last document. */
const listGates = new Map<string, Promise<void>>();

const slowListSource = defineSource<{ n: number; gap_ms: number; hold?: string | undefined }>({
  type: 'slow_list',
  description: 'documents listed with a pause between them; re-openable',
  config: z.strictObject({ n: z.number().int(), gap_ms: z.number().int(), hold: z.string().optional() }),
  create: (config) => ({
    async *list() {
      for (let i = 0; i < config.n; i++) {
        if (i > 0) await sleep(config.gap_ms);
        // With `hold`, the last document waits until the test opens that gate.
        if (i === config.n - 1 && config.hold !== undefined) await listGates.get(config.hold);
        yield textDoc(`doc-${i}`);
      }
    },
    get: async (record) => textDoc(record.record_id),
  }),
});

/** Records written per API key of the `keyed` destination (a config holding a credential). */
const keyedWrites = new Map<string, number>();
const keyedDestination = defineDestination<{ api_key: string }>({
  type: 'keyed',
  description: 'counts writes per api_key',
  config: z.strictObject({ api_key: z.string() }),
  create: (config) => ({
    async write() {
      keyedWrites.set(config.api_key, (keyedWrites.get(config.api_key) ?? 0) + 1);
    },
  }),
});

// Warns about a document whose text asks for it, and hands its elements on.
const warnNode = defineNode<Record<string, never>>({
  type: 'prompter',
  subtype: 'warn_word',
  settings: z.strictObject({}),
  create: () => ({
    process: ({ document, elements }, ctx) => {
      if (elements.some((e) => e.text.includes('WARN'))) ctx.logger.warn(`${document.filename} asked for a warning`, { why: 'test' });
      return elements;
    },
  }),
});

const testPlugin = definePlugin({
  name: 'distributed-test',
  engine: '^0.1.0',
  nodes: [waitNode, warnNode],
  sources: [listOnlySource, slowListSource],
  destinations: [countingDestination, keyedDestination],
});

function newEngine(): Engine {
  return createEngine().use(nodesPlugin).use(connectorsPlugin).use(testPlugin);
}

const partitionThenChunk = {
  name: 'distributed-docs',
  nodes: [
    { name: 'Partitioner', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } },
    { name: 'Chunker', type: 'chunk' as const, subtype: 'chunk_by_title', settings: { max_characters: 300 } },
  ],
};

function writeDocs(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const body = Array.from(
      { length: 6 },
      (_, j) => `Paragraph ${j} of note ${i}: the ${['river', 'station', 'ledger'][i % 3]} log records reading ${i * 7 + j}.`,
    ).join('\n\n');
    writeFileSync(path.join(dir, `note-${String(i).padStart(3, '0')}.md`), `# Note ${i}\n\n${body}\n`);
  }
}

// Chunks get fresh UUIDs on every run; everything else must match byte for byte.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function readOutputs(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, readFileSync(path.join(dir, f), 'utf8').replace(UUID, '<uuid>')]),
  );
}

function comparable(s: JobSummary): unknown {
  return {
    status: s.status,
    counts: s.counts,
    failures: [...s.failures].sort((a, b) => a.record_id.localeCompare(b.record_id)),
    nodes: s.nodes.map(({ ms: _ms, ...rest }) => rest),
  };
}

describe.skipIf(redisSkipReason !== undefined)(`distributed runs on BullMQ${redisSkipReason ? ` (skipped: ${redisSkipReason})` : ''}`, () => {
  let redis: RedisServer;
  let tmp: string;
  let queueSeq = 0;
  const nextQueue = (): string => `test${queueSeq++}`;
  const fast = { lockDurationMs: 2000, stalledIntervalMs: 1000 };

  beforeAll(async () => {
    redis = await startRedisServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'quarry-distributed-'));
  });
  afterAll(async () => {
    await redis?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  async function withWorkers<T>(
    queue: string,
    n: number,
    fn: (workers: DistributedWorker[]) => Promise<T>,
    concurrency = 2,
    extra: Partial<WorkerOptions> = {},
  ): Promise<T> {
    const workers = await Promise.all(
      Array.from({ length: n }, (_, i) => startWorker(newEngine(), { redis: redis.url, queue, concurrency, name: `w${i}`, ...fast, ...extra })),
    );
    try {
      return await fn(workers);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  }

  it('runs a job on two workers with the same outputs, counts and failures as an in-process run', async () => {
    const input = path.join(tmp, 'same-in');
    writeDocs(input, 40);
    writeFileSync(path.join(input, 'broken.pdf'), '%PDF-1.7\nthis is not a PDF body\n');
    const engine = newEngine();
    const plan = engine.build(partitionThenChunk);
    const local = await engine.run(plan, {
      source: { type: 'local', config: { path: input } },
      destination: { type: 'local', config: { path: path.join(tmp, 'same-local') } },
    }).done;
    const queue = nextQueue();
    const [summary, counts] = await withWorkers(queue, 2, async (workers) => {
      const job = runDistributed(engine, plan, {
        redis: redis.url,
        queue,
        source: { type: 'local', config: { path: input } },
        destination: { type: 'local', config: { path: path.join(tmp, 'same-dist') } },
      });
      return [await job.done, workers.map((w) => ({ ...w.counts }))] as const;
    });
    expect(local.counts).toMatchObject({ total: 41, written: 40, failed: 1 });
    expect(local.failures[0]).toMatchObject({ record_id: 'broken.pdf', node: 'Partitioner', code: 'FILE_UNREADABLE' });
    expect(comparable(summary)).toEqual(comparable(local));
    expect(readOutputs(path.join(tmp, 'same-dist'))).toEqual(readOutputs(path.join(tmp, 'same-local')));
    // Both workers took tasks; the broken document was tried once, not retried.
    expect(counts.every((c) => c.written > 0)).toBe(true);
    expect(counts.reduce((n, c) => n + c.written, 0)).toBe(40);
    expect(counts.reduce((n, c) => n + c.retried, 0)).toBe(0);
  });

  it('emits the in-process event sequence per document, with node timings', async () => {
    const input = path.join(tmp, 'events-in');
    writeDocs(input, 5);
    const engine = newEngine();
    const queue = nextQueue();
    const seen: JobEvent[] = [];
    const summary = await withWorkers(queue, 1, async () => {
      const job = runDistributed(engine, engine.build(partitionThenChunk), { redis: redis.url, queue, source: { type: 'local', config: { path: input } } });
      job.events$.subscribe((e) => seen.push(e));
      return job.done;
    });
    expect(summary.status).toBe('COMPLETED');
    expect(seen[0]).toMatchObject({ type: 'job_started', job_id: summary.job_id, total: 5 });
    expect(seen.at(-1)).toMatchObject({ type: 'job_finished' });
    for (const id of ['note-000.md', 'note-004.md']) {
      const types = seen.filter((e) => 'record_id' in e && e.record_id === id).map((e) => (e.type === 'node_finished' ? `${e.type}:${e.node}` : e.type));
      expect(types).toEqual(['document_started', 'node_finished:Partitioner', 'node_finished:Chunker', 'document_written']);
    }
    expect(summary.nodes.map((n) => [n.node, n.success])).toEqual([
      ['Partitioner', 5],
      ['Chunker', 5],
    ]);
    expect(summary.counts.elements).toBeGreaterThan(5);
  });

  it("carries a document's warning from the worker to the job's events and summary, as in process", async () => {
    const input = path.join(tmp, 'warn-in');
    writeDocs(input, 3);
    writeFileSync(path.join(input, 'odd.md'), '# Odd\n\nThis note says WARN.\n');
    const engine = newEngine();
    const plan = engine.build({
      name: 'warns',
      nodes: [partitionThenChunk.nodes[0]!, { name: 'Warner', type: 'prompter' as const, subtype: 'warn_word', settings: {} }],
    });
    const queue = nextQueue();
    const seen: JobEvent[] = [];
    const summary = await withWorkers(queue, 1, async () => {
      const job = runDistributed(engine, plan, { redis: redis.url, queue, source: { type: 'local', config: { path: input } } });
      job.events$.subscribe((e) => seen.push(e));
      return job.done;
    });
    const warning = { record_id: 'odd.md', filename: 'odd.md', node: 'Warner', message: 'odd.md asked for a warning', details: { why: 'test' } };
    expect(seen.filter((e) => e.type === 'document_warning')).toEqual([{ type: 'document_warning', ...warning }]);
    expect(summary.warnings).toEqual([warning]);
    expect(summary.counts).toMatchObject({ written: 4, failed: 0 });
  });

  it('skips unchanged documents on a second run with the same state store', async () => {
    const input = path.join(tmp, 'incr-in');
    writeDocs(input, 6);
    const engine = newEngine();
    const plan = engine.build({ ...partitionThenChunk, reprocess_all: false });
    const state = new MemoryStateStore();
    const queue = nextQueue();
    const options = {
      redis: redis.url,
      queue,
      source: { type: 'local', config: { path: input } },
      destination: { type: 'local', config: { path: path.join(tmp, 'incr-out') } },
      state,
    };
    const [first, second] = await withWorkers(
      queue,
      1,
      async () => [await runDistributed(engine, plan, options).done, await runDistributed(engine, plan, options).done] as const,
    );
    expect(first.counts).toMatchObject({ total: 6, written: 6, skipped: 0 });
    expect(second.counts).toMatchObject({ total: 6, written: 0, skipped: 6 });
    writeFileSync(path.join(input, 'note-002.md'), '# Changed\n\nA new body.\n');
    const third = await withWorkers(queue, 1, () => runDistributed(engine, plan, options).done);
    expect(third.counts).toMatchObject({ written: 1, skipped: 5 });
  });

  it('counts every outcome before the job ends, even one whose version the state store records slowly', async () => {
    const input = path.join(tmp, 'slow-state-in');
    writeDocs(input, 8);
    const engine = newEngine();
    const plan = engine.build({ ...partitionThenChunk, reprocess_all: false });
    // The first document's version takes a second to record; the other seven are done long before.
    const memory = new MemoryStateStore();
    const state = {
      get: (id: string) => memory.get(id),
      set: async (id: string, version: string) => {
        if (id === 'note-000.md') await sleep(1000);
        await memory.set(id, version);
      },
    };
    const queue = nextQueue();
    const summary = await withWorkers(
      queue,
      2,
      () =>
        runDistributed(engine, plan, {
          redis: redis.url,
          queue,
          source: { type: 'local', config: { path: input } },
          destination: { type: 'local', config: { path: path.join(tmp, 'slow-state-out') } },
          state,
        }).done,
    );
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: 8, written: 8, failed: 0, stopped: 0 });
    expect(await memory.get('note-000.md')).toBeDefined();
  });

  it('queues tasks in batches without stalling a window smaller than a batch or a slow listing', async () => {
    const engine = newEngine();
    const plan = engine.build({ name: 'batches', nodes: [partitionThenChunk.nodes[0]!] });
    const queue = nextQueue();
    writes.clear();
    preparedShared.length = 0;
    const [small, slow] = await withWorkers(queue, 2, async () => [
      // Two tasks at a time, fewer than a batch holds.
      await runDistributed(engine, plan, {
        redis: redis.url,
        queue,
        source: { type: 'slow_list', config: { n: 9, gap_ms: 0 } },
        destination: { type: 'counting', config: { fail_first: 0 } },
        window: 2,
      }).done,
      // A document listed every 40 ms: each is sent after a short wait, not when a batch fills.
      await runDistributed(engine, plan, { redis: redis.url, queue, source: { type: 'slow_list', config: { n: 4, gap_ms: 40 } } }).done,
    ]);
    expect(small.counts).toMatchObject({ total: 9, written: 9, failed: 0 });
    // The coordinator prepares the destination as its only user; each worker as one of several writers.
    expect(preparedShared[0]).toBe(false);
    expect(preparedShared.slice(1)).toContain(true);
    expect(preparedShared.slice(1).every((shared) => shared)).toBe(true);
    expect([...writes.values()]).toEqual(Array.from({ length: 9 }, () => 1));
    expect(slow.counts).toMatchObject({ total: 4, written: 4, failed: 0 });
  });

  it('never reports a task lost while it waits for its batch to be sent', async () => {
    const engine = newEngine();
    const queue = nextQueue();
    // Tasks are looked up every millisecond; each listed task waits ~5 ms for its batch.
    const summary = await withWorkers(
      queue,
      1,
      () =>
        runDistributed(engine, engine.build({ name: 'unsent', nodes: [partitionThenChunk.nodes[0]!] }), {
          redis: redis.url,
          queue,
          source: { type: 'slow_list', config: { n: 6, gap_ms: 15 } },
          reconcileMs: 1,
        }).done,
    );
    expect(summary.failures).toEqual([]);
    expect(summary.counts).toMatchObject({ total: 6, written: 6, failed: 0 });
  });

  it('retries a failed write with backoff on the same record, and fails it after the last attempt', async () => {
    const input = path.join(tmp, 'retry-in');
    writeDocs(input, 4);
    const engine = newEngine();
    const plan = engine.build({ name: 'retry', nodes: [partitionThenChunk.nodes[0]!] });
    const queue = nextQueue();
    writes.clear();
    attempts.clear();
    const ok = await withWorkers(
      queue,
      1,
      () =>
        runDistributed(engine, plan, {
          redis: redis.url,
          queue,
          source: { type: 'local', config: { path: input } },
          destination: { type: 'counting', config: { fail_first: 2 } },
          attempts: 3,
          backoffMs: 50,
        }).done,
    );
    expect(ok.counts).toMatchObject({ written: 4, failed: 0 });
    expect([...attempts.values()]).toEqual([3, 3, 3, 3]);
    expect([...writes.values()]).toEqual([1, 1, 1, 1]);

    writes.clear();
    attempts.clear();
    const failed = await withWorkers(
      queue,
      1,
      () =>
        runDistributed(engine, plan, {
          redis: redis.url,
          queue,
          source: { type: 'local', config: { path: input } },
          destination: { type: 'counting', config: { fail_first: 5 } },
          attempts: 2,
          backoffMs: 50,
        }).done,
    );
    expect(failed.status).toBe('FAILED');
    expect(failed.counts).toMatchObject({ written: 0, failed: 4 });
    expect(failed.failures.map((f) => [f.node, f.code])).toEqual(Array.from({ length: 4 }, () => ['destination', 'DESTINATION_WRITE_FAILED']));
    expect([...attempts.values()]).toEqual([2, 2, 2, 2]);
  });

  it('cancels: queued tasks are removed, running ones stop, nothing is written afterwards, the job ends STOPPED', async () => {
    const input = path.join(tmp, 'cancel-in');
    writeDocs(input, 30);
    const engine = newEngine();
    const plan = engine.build({
      name: 'cancel',
      nodes: [partitionThenChunk.nodes[0]!, { name: 'Slow', type: 'prompter', subtype: 'wait', settings: { ms: 150 } }],
    });
    const queue = nextQueue();
    writes.clear();
    attempts.clear();
    const summary = await withWorkers(queue, 1, async () => {
      const job = runDistributed(engine, plan, {
        redis: redis.url,
        queue,
        source: { type: 'local', config: { path: input } },
        destination: { type: 'counting', config: {} },
      });
      job.events$.subscribe((e) => {
        if (e.type === 'document_written') job.cancel();
      });
      return job.done;
    });
    const writtenAtEnd = [...writes.values()].reduce((a, b) => a + b, 0);
    await sleep(500);
    expect(summary.status).toBe('STOPPED');
    expect(summary.counts.written).toBeGreaterThanOrEqual(1);
    expect(summary.counts.written).toBeLessThan(30);
    expect(summary.counts.written + summary.counts.stopped + summary.counts.failed).toBe(summary.counts.total);
    expect([...writes.values()].reduce((a, b) => a + b, 0)).toBe(writtenAtEnd);
    expect(writtenAtEnd).toBe(summary.counts.written);
  });

  it('closes a job idle in a worker and opens it again when its next task comes', async () => {
    const engine = newEngine();
    const queue = nextQueue();
    writes.clear();
    attempts.clear();
    const worker = await startWorker(newEngine(), { redis: redis.url, queue, concurrency: 1, idleCloseMs: 30, ...fast });
    try {
      const summary = await runDistributed(engine, engine.build({ name: 'idle', nodes: [partitionThenChunk.nodes[0]!] }), {
        redis: redis.url,
        queue,
        source: { type: 'slow_list', config: { n: 4, gap_ms: 250 } },
        destination: { type: 'counting', config: {} },
      }).done;
      expect(summary.counts).toMatchObject({ total: 4, written: 4, stopped: 0, failed: 0 });
      expect([...writes.values()]).toEqual([1, 1, 1, 1]);
      expect(worker.counts).toMatchObject({ written: 4, retried: 0 });
    } finally {
      await worker.close();
    }
  });

  it('keeps connector configs encrypted in Redis with a shared secret, runs only tasks the coordinator signed; a worker without it cannot run the job', async () => {
    const engine = newEngine();
    const plan = engine.build({ name: 'sealed', nodes: [partitionThenChunk.nodes[0]!] });
    const apiKey = 'k3y-that-must-not-be-in-redis';
    const queue = nextQueue();
    const reader = new Redis(redis.url);
    const forger = new Queue(queue, { connection: { url: redis.url }, prefix: KEY_PREFIX });
    const specs: string[] = [];
    keyedWrites.clear();
    try {
      const sealed = await withWorkers(
        queue,
        1,
        async () => {
          // The job stays open (its last document unlisted) until the forged task has been handled.
          let open = (): void => undefined;
          listGates.set('forged', new Promise<void>((resolve) => (open = resolve)));
          const job = runDistributed(engine, plan, {
            redis: redis.url,
            queue,
            source: { type: 'slow_list', config: { n: 3, gap_ms: 0, hold: 'forged' } },
            destination: { type: 'keyed', config: { api_key: apiKey } },
            secret: 'shared',
          });
          // While the job runs, its spec is in Redis: read it as anyone with access to Redis could.
          let specKeys: string[] = [];
          await until(async () => (specKeys = await reader.keys('*:spec')).length > 0);
          for (const key of specKeys) specs.push((await reader.get(key)) ?? '');
          // And queue a document of one's own for it: without the secret the task cannot be signed.
          const { job_id, workflow_id, workflow_version } = JSON.parse(specs[0] ?? '{}') as { job_id: string; workflow_id: string; workflow_version: string };
          const forged = await forger.add(
            'document',
            { job_id, workflow_id, workflow_version, record: { record_id: 'doc-forged', filename: 'doc-forged.txt', data_source: {} } },
            { jobId: 'forged', attempts: 1 },
          );
          await until(() => forged.isCompleted());
          open();
          const summary = await job.done;
          // Refused on its (only) attempt: reported as a failure, nothing read or written.
          expect((await forger.getJob('forged'))?.returnvalue).toMatchObject({
            outcome: 'failed',
            failure: { record_id: 'doc-forged', code: 'DISTRIBUTED_JOB_INVALID', message: expect.stringMatching(/signature/) },
          });
          return summary;
        },
        2,
        { secret: 'shared' },
      );
      expect(sealed.counts).toMatchObject({ total: 3, written: 3, failed: 0 });
      expect(keyedWrites.get(apiKey)).toBe(3);
      expect(specs.length).toBeGreaterThan(0);
      for (const spec of specs) {
        expect(spec).not.toContain(apiKey);
        expect(JSON.parse(spec)).toHaveProperty('sealed');
      }

      const noSecret = await withWorkers(
        queue,
        1,
        () =>
          runDistributed(engine, plan, {
            redis: redis.url,
            queue,
            source: { type: 'slow_list', config: { n: 2, gap_ms: 0 } },
            destination: { type: 'keyed', config: { api_key: apiKey } },
            secret: 'shared',
            attempts: 1,
          }).done,
      );
      expect(noSecret.counts).toMatchObject({ total: 2, written: 0, failed: 2 });
      expect(noSecret.failures.map((f) => f.code)).toEqual(['DISTRIBUTED_KEY_REQUIRED', 'DISTRIBUTED_KEY_REQUIRED']);
      expect(keyedWrites.get(apiKey)).toBe(3);
    } finally {
      listGates.delete('forged');
      reader.disconnect();
      await forger.close();
    }
  });

  it('warns when connector credentials go to Redis in clear', async () => {
    const engine = newEngine();
    const queue = nextQueue();
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    const run = (config: Record<string, unknown>, type: string) =>
      withWorkers(
        queue,
        1,
        () =>
          runDistributed(engine, engine.build({ name: 'clear', nodes: [partitionThenChunk.nodes[0]!] }), {
            redis: redis.url,
            queue,
            source: { type: 'slow_list', config: { n: 1, gap_ms: 0 } },
            destination: { type, config },
            logger,
          }).done,
      );
    expect((await run({ fail_first: 0 }, 'counting')).counts.written).toBe(1);
    expect(warnings.filter((w) => w.includes('in clear'))).toHaveLength(0);
    expect((await run({ api_key: 'visible' }, 'keyed')).counts.written).toBe(1);
    expect(warnings.filter((w) => w.includes('in clear'))).toHaveLength(1);
  });

  it('refuses a source that cannot re-open documents, before queueing anything', async () => {
    const engine = newEngine();
    const summary = await runDistributed(engine, engine.build({ name: 'no-get', nodes: [partitionThenChunk.nodes[0]!] }), {
      redis: redis.url,
      queue: nextQueue(),
      source: { type: 'list_only', config: { n: 3 } },
    }).done;
    expect(summary.status).toBe('FAILED');
    expect(summary.error?.code).toBe('SOURCE_NOT_ADDRESSABLE');
    expect(summary.counts.total).toBe(0);
  });

  it('names an unreachable Redis with REDIS_UNAVAILABLE, for the coordinator and the worker', async () => {
    const engine = newEngine();
    const url = 'redis://127.0.0.1:1';
    const summary = await runDistributed(engine, engine.build({ name: 'no-redis', nodes: [partitionThenChunk.nodes[0]!] }), {
      redis: url,
      source: { type: 'local', config: { path: tmp } },
    }).done;
    expect(summary.status).toBe('FAILED');
    expect(summary.error).toMatchObject({ code: 'REDIS_UNAVAILABLE' });
    expect(summary.error?.message).toContain('127.0.0.1:1');
    await expect(startWorker(engine, { redis: url })).rejects.toMatchObject({ code: 'REDIS_UNAVAILABLE' });
    await expect(startWorker(engine, { redis: 'http://nope' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

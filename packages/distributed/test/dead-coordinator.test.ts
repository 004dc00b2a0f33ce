import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, sleep, type Engine } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDeadJobs, runDistributed, startWorker, type DeadJobReport, type DistributedWorker } from '../src/index.js';
import { KEY_PREFIX, queueKeys } from '../src/keys.js';
import { redisSkipReason, startRedisServer, type RedisServer } from './support/redis-server.js';
import { waitPlugin, waitWorkflow } from './support/slow-plugin.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const CHILD = path.join(here, 'support/coordinator-child.ts');
const DOCS = 24;
const WAIT_MS = 250;

function newEngine(): Engine {
  return createEngine().use(nodesPlugin).use(connectorsPlugin).use(waitPlugin);
}

function writeDocs(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < DOCS; i++) writeFileSync(path.join(dir, `note-${String(i).padStart(2, '0')}.txt`), `Note ${i}. The ledger records reading ${i * 7}.\n`);
}

const outputs = (dir: string): number => {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json')).length;
  } catch {
    return 0;
  }
};

async function until(cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(50);
  }
}

/** Starts a coordinator child and SIGKILLs it once `written` documents are in the output. */
async function coordinatorKilledAfter(
  redisUrl: string,
  queue: string,
  input: string,
  output: string,
  written: number,
  ready: () => Promise<boolean> = async () => true,
): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, redisUrl, queue, input, output, String(WAIT_MS)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await until(async () => (outputs(output) >= written && (await ready())) || child.exitCode !== null);
    if (child.exitCode !== null) throw new Error(`the coordinator exited by itself (${child.exitCode}): ${err}`);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe.skipIf(redisSkipReason !== undefined)('a coordinator killed mid-job (real Redis)', () => {
  let redis: RedisServer;
  let tmp: string;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedisServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'quarry-dead-coordinator-'));
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  // Default locks: under load a short lock would hand a running task to another worker and count it twice.
  const startW = (queue: string, name: string): Promise<DistributedWorker> => startWorker(newEngine(), { redis: redis.url, queue, concurrency: 2, name });

  it('workers stop running its tasks (COORDINATOR_LOST); the next run of the workflow reports every task and cleans up', async () => {
    const queue = 'dead1';
    const input = path.join(tmp, 'in1');
    const output = path.join(tmp, 'out1');
    writeDocs(input);
    let worker = await startW(queue, 'w1');
    let reports: DeadJobReport[] = [];
    try {
      await coordinatorKilledAfter(redis.url, queue, input, output, 3);
      // Once the heartbeat expires, the worker takes the remaining tasks and runs none of them.
      const q = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port }, prefix: KEY_PREFIX });
      await until(async () => worker.counts.orphaned > 0 && (await q.getWaitingCount()) === 0);
      await q.close();
      await worker.close();
      const writtenBefore = outputs(output);
      expect(worker.counts.orphaned).toBeGreaterThan(0);
      expect(worker.counts.written + worker.counts.orphaned).toBe(DOCS);
      expect(writtenBefore).toBe(worker.counts.written);

      // The next run of the same workflow accounts for the dead job before it queues its own tasks.
      worker = await startW(queue, 'w2');
      const engine = newEngine();
      const job = runDistributed(engine, engine.build(waitWorkflow(0)), {
        redis: redis.url,
        queue,
        source: { type: 'local', config: { path: input } },
        destination: { type: 'local', config: { path: output } },
        onDeadJob: (r) => reports.push(r),
      });
      const summary = await job.done;
      expect(summary.counts).toMatchObject({ total: DOCS, written: DOCS, failed: 0 });
    } finally {
      await worker.close();
    }
    expect(reports).toHaveLength(1);
    const [r] = reports as [DeadJobReport];
    expect(r).toMatchObject({ workflow_id: 'dead-coordinator', tasks: DOCS, failed: 0, stopped: 0, never_run: 0, running: 0, lost: 0, unsigned: 0 });
    expect(r.written).toBeGreaterThanOrEqual(3);
    expect(r.orphaned).toBeGreaterThan(0);
    expect(r.written + r.orphaned).toBe(DOCS);
    expect(r.not_written).toHaveLength(r.orphaned);
    // Cleaned up: the dead job's records are gone, and a second accounting finds nothing.
    const keys = queueKeys(queue);
    expect(await client.hkeys(keys.jobs)).toEqual([]);
    expect(await client.exists(keys.spec(r.job_id), keys.queued(r.job_id), keys.alive(r.job_id))).toBe(0);
    expect(await accountDeadJobs({ redis: redis.url, queue })).toEqual([]);
    reports = [];
  });

  it('tasks nobody took are removed and reported never run (explicit accounting)', async () => {
    const queue = 'dead2';
    const input = path.join(tmp, 'in2');
    const output = path.join(tmp, 'out2');
    writeDocs(input);
    const worker = await startW(queue, 'w3');
    const counts = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port }, prefix: KEY_PREFIX });
    try {
      // Killed once every task is queued (on a loaded machine the listing can trail the first outputs).
      const allQueued = async (): Promise<boolean> => {
        const c = await counts.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');
        return Object.values(c).reduce((a, b) => a + b, 0) >= DOCS;
      };
      await coordinatorKilledAfter(redis.url, queue, input, output, 2, allQueued);
    } finally {
      await counts.close();
      // Closed before the heartbeat expires: it finishes what it runs, and takes nothing more.
      await worker.close();
    }
    const q = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port }, prefix: KEY_PREFIX });
    try {
      expect(await q.getWaitingCount()).toBeGreaterThan(0);
      // Another workflow's dead jobs only: none.
      expect(await accountDeadJobs({ redis: redis.url, queue, workflowId: 'another' })).toEqual([]);
      await sleep(1200);
      const reports = await accountDeadJobs({ redis: redis.url, queue, workflowId: 'dead-coordinator' });
      expect(reports).toHaveLength(1);
      const [r] = reports as [DeadJobReport];
      expect(r).toMatchObject({ tasks: DOCS, written: worker.counts.written, orphaned: 0, failed: 0, running: 0, lost: 0 });
      expect(r.never_run).toBe(DOCS - worker.counts.written);
      expect(r.not_written).toHaveLength(r.never_run);
      expect(await q.getWaitingCount()).toBe(0);
    } finally {
      await q.close();
    }
  });

  it('accounting a queue without dead jobs leaves no rejected promise behind', async () => {
    // Closing a BullMQ queue before its connection is ready rejected its version check unawaited:
    // a race that a few hundred quick accountings lose a few times.
    const rejections: unknown[] = [];
    const onRejection = (e: unknown): void => void rejections.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      for (let i = 0; i < 300; i++) expect(await accountDeadJobs({ redis: redis.url, queue: 'dead3' })).toEqual([]);
      await sleep(200);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections.map(String)).toEqual([]);
  });
});

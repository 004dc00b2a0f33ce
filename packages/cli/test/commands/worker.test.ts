import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@quarry/core';
import { runDistributed } from '@quarry/distributed';
import { defaultEngine } from '../../src/engine.js';
import { BIN, ROOT, WORKER_BIN, runCli, shebangNodeOptions } from '../run-cli.js';
import { redisSkipReason, startRedisServer, type RedisServer } from '../../../distributed/test/support/redis-server.js';

const DOCS = 200;

/**
 * Starts `quarry worker` (or `quarry-worker`, with the Node options of its shebang line) and
 * resolves once it reports ready on stderr.
 */
async function startWorkerProcess(
  url: string,
  queue: string,
  name: string,
  bin: 'quarry' | 'quarry-worker' = 'quarry',
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; log: () => string }> {
  const command = bin === 'quarry' ? [BIN, 'worker'] : [...shebangNodeOptions(WORKER_BIN), WORKER_BIN];
  const child = spawn(
    process.execPath,
    [...command, '--redis', url, '--queue', queue, '--concurrency', '2', '--lock-ms', '2000', '--stalled-interval-ms', '1000', '--name', name],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d) => {
      log += d;
      if (log.includes(': ready on queue')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${name} exited with ${code}: ${log}`)));
  });
  return { child, log: () => log };
}

function writeDocs(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < DOCS; i++) {
    const sections = Array.from(
      { length: 40 },
      (_, j) => `## Section ${j}\n\nEntry ${j} of report ${i} lists ${i * 31 + j} crates moved through gate ${j % 7}, checked twice.`,
    );
    writeFileSync(path.join(dir, `report-${String(i).padStart(3, '0')}.md`), `# Report ${i}\n\n${sections.join('\n\n')}\n`);
  }
}

const workflow = {
  name: 'reports',
  nodes: [{ name: 'Partitioner', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } }],
};

describe.skipIf(redisSkipReason !== undefined)(`quarry worker --redis${redisSkipReason ? ` (skipped: ${redisSkipReason})` : ''}`, () => {
  let redis: RedisServer;
  let tmp: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    tmp = mkdtempSync(path.join(tmpdir(), 'quarry-worker-'));
    writeDocs(path.join(tmp, 'in'));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await redis?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('two worker processes (quarry worker, quarry-worker) share a 200-document job; one is killed mid-run and every document is still written exactly once', async () => {
    const queue = 'killtest';
    const a = await startWorkerProcess(redis.url, queue, 'worker-a');
    const b = await startWorkerProcess(redis.url, queue, 'worker-b', 'quarry-worker');
    children.push(a.child, b.child);
    const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger: Logger = { debug() {}, info() {}, warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }), error() {} };
    const engine = defaultEngine();
    const plan = engine.build(workflow);
    const out = path.join(tmp, 'out');
    const job = runDistributed(engine, plan, {
      redis: redis.url,
      queue,
      source: { type: 'local', config: { path: path.join(tmp, 'in') } },
      destination: { type: 'local', config: { path: out } },
      logger,
    });
    const written: string[] = [];
    let killedAt = -1;
    job.events$.subscribe((e) => {
      if (e.type !== 'document_written') return;
      written.push(e.record_id);
      if (written.length === 40) {
        killedAt = written.length;
        a.child.kill('SIGKILL');
      }
    });
    const summary = await job.done;
    expect(killedAt).toBe(40);
    expect(a.child.signalCode).toBe('SIGKILL');
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: DOCS, written: DOCS, failed: 0, stopped: 0 });
    // Each document reported written once, and its tasks held by the killed worker were taken over.
    expect(new Set(written).size).toBe(DOCS);
    expect(written.length).toBe(DOCS);
    expect(warnings.filter((w) => w.message.startsWith('task taken over')).length).toBeGreaterThan(0);
    // The destination holds every document once, exactly as an in-process run writes it.
    const local = path.join(tmp, 'local');
    const inProcess = await engine.run(plan, {
      source: { type: 'local', config: { path: path.join(tmp, 'in') } },
      destination: { type: 'local', config: { path: local } },
    }).done;
    expect(inProcess.counts.written).toBe(DOCS);
    const files = readdirSync(out).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(DOCS);
    for (const f of files) expect(readFileSync(path.join(out, f), 'utf8')).toBe(readFileSync(path.join(local, f), 'utf8'));
    b.child.kill('SIGTERM');
    await new Promise((r) => b.child.once('exit', r));
    expect(b.log()).toMatch(/quarry worker worker-b: stopped \(\d+ written, 0 failed/);
  }, 120_000);

  it('quarry run --redis runs a workflow file on a worker and prints the summary', async () => {
    const queue = 'runtest';
    const w = await startWorkerProcess(redis.url, queue, 'worker-c');
    children.push(w.child);
    const wf = path.join(tmp, 'wf.json');
    writeFileSync(wf, JSON.stringify({ name: 'reports', workflow_type: 'custom', reprocess_all: false, workflow_nodes: workflow.nodes }));
    const r = await runCli([
      'run',
      wf,
      '--input',
      path.join(tmp, 'in'),
      '--output',
      path.join(tmp, 'run-out'),
      '--redis',
      redis.url,
      '--queue',
      queue,
      '--no-progress',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`COMPLETED: ${DOCS} written, 0 failed, 0 unchanged, 0 stopped of ${DOCS} documents`);
    const again = await runCli([
      'run',
      wf,
      '--input',
      path.join(tmp, 'in'),
      '--output',
      path.join(tmp, 'run-out'),
      '--redis',
      redis.url,
      '--queue',
      queue,
      '--no-progress',
    ]);
    expect(again.stdout).toContain(`0 written, 0 failed, ${DOCS} unchanged`);
    const bad = await runCli(['run', wf, '--input', path.join(tmp, 'in'), '--output', path.join(tmp, 'run-out'), '--redis', redis.url, '--num-processes', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--num-processes and --document-timeout apply to in-process runs');
    w.child.kill('SIGTERM');
    await new Promise((r) => w.child.once('exit', r));
  }, 120_000);

  it("QUARRY_DISTRIBUTED_KEY: a worker with the run's secret runs the job; one without it fails its documents with DISTRIBUTED_KEY_REQUIRED", async () => {
    const input = path.join(tmp, 'keyed-in');
    mkdirSync(input, { recursive: true });
    for (let i = 0; i < 3; i++) writeFileSync(path.join(input, `note-${i}.md`), `# Note ${i}\n\nA short body.\n`);
    const wf = path.join(tmp, 'keyed-wf.json');
    writeFileSync(wf, JSON.stringify({ name: 'keyed', workflow_type: 'custom', workflow_nodes: workflow.nodes }));
    const env = { QUARRY_DISTRIBUTED_KEY: 'a shared secret' };
    const run = (queue: string) =>
      runCli(['run', wf, '--input', input, '--output', path.join(tmp, `keyed-out-${queue}`), '--redis', redis.url, '--queue', queue, '--no-progress'], { env });
    const withKey = await startWorkerProcess(redis.url, 'keyed', 'worker-k', 'quarry', env);
    const without = await startWorkerProcess(redis.url, 'unkeyed', 'worker-u');
    children.push(withKey.child, without.child);
    const ok = await run('keyed');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('COMPLETED: 3 written, 0 failed');
    const refused = await run('unkeyed');
    expect(refused.stdout).toContain('0 written, 3 failed');
    expect(refused.stdout + refused.stderr).toContain('DISTRIBUTED_KEY_REQUIRED');
    for (const w of [withKey, without]) {
      w.child.kill('SIGTERM');
      await new Promise((r) => w.child.once('exit', r));
    }
  }, 120_000);
});

describe('quarry-worker', () => {
  it('is quarry worker started with its Node options: a missing --redis is a usage error naming the option', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...shebangNodeOptions(WORKER_BIN), WORKER_BIN, '--queue', 'q'], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(shebangNodeOptions(WORKER_BIN)).toEqual(['--single-threaded-gc', '--max-semi-space-size=64']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--redis <url>' not specified");
  });
});

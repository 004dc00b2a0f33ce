import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  definePlugin,
  ENGINE_VERSION,
  isQuarryError,
  Services,
  sleep,
  type DestinationConnector,
  type Job,
  type Element,
  type JobSummary,
  type SourceConnector,
  type SourceDocument,
} from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { nodesPlugin, PARTITION_POOL_SERVICE, PartitionPool } from '../../src/index.js';
import { testFormat } from '../support/test-formats.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const corpusDocs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const crashingWorker = new URL('../support/crashing-partition-worker.ts', import.meta.url);

const engine = createEngine().use(nodesPlugin);
const plan = engine.build({
  name: 'pool',
  nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } }],
});

function doc(filename: string, bytes: Uint8Array): SourceDocument {
  return { record_id: filename, filename, data_source: { record_locator: { name: filename } }, read: async () => bytes };
}

function generated(n: number): SourceDocument[] {
  const enc = new TextEncoder();
  return Array.from({ length: n }, (_, i) => {
    const kind = i % 3;
    if (kind === 0)
      return doc(
        `note-${i}.md`,
        enc.encode(`# Note ${i}\n\nThe first paragraph of note ${i} says what it is about.\n\n- one\n- two\n\n## Details\n\nMore text for ${i}.\n`),
      );
    if (kind === 1)
      return doc(
        `page-${i}.html`,
        enc.encode(
          `<html><body><h1>Page ${i}</h1><p>Body text of page ${i}, long enough to be narrative text.</p><table><tr><td>a</td><td>${i}</td></tr></table></body></html>`,
        ),
      );
    return doc(`rows-${i}.csv`, enc.encode(`name,value\nalpha,${i}\nbeta,${i * 2}\n`));
  });
}

/** Polls a condition every 50 ms until it holds (the test's own timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(50);
}

/** Whether a process is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function listSource(docs: SourceDocument[]): SourceConnector {
  return {
    count: async () => docs.length,
    async *list() {
      yield* docs;
    },
  };
}

async function run(
  docs: SourceDocument[],
  pool?: PartitionPool,
  options: { nodeTimeoutMs?: number; onJob?: (job: Job) => void } = {},
): Promise<{ summary: JobSummary; out: Map<string, Element[]> }> {
  const out = new Map<string, Element[]>();
  const destination: DestinationConnector = { write: async ({ document, elements }) => void out.set(document.record_id, elements) };
  const job = engine.run(plan, {
    source: listSource(docs),
    destination,
    concurrency: 4,
    ...(options.nodeTimeoutMs ? { nodeTimeoutMs: options.nodeTimeoutMs } : {}),
    ...(pool ? { services: new Services().set(PARTITION_POOL_SERVICE, pool) } : {}),
  });
  options.onJob?.(job);
  return { summary: await job.done, out };
}

describe('PartitionPool', () => {
  let pool: PartitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('partitions documents in child processes with the same elements as in this process', async () => {
    const docs = generated(9);
    const inProcess = await run(docs);
    pool = new PartitionPool({ size: 2 });
    const pooled = await run(docs, pool);
    expect(pooled.summary.status).toBe('COMPLETED');
    expect(pooled.summary.counts).toMatchObject({ total: 9, written: 9, failed: 0 });
    expect(pooled.out.size).toBe(9);
    for (const [id, elements] of inProcess.out) {
      expect(elements.length).toBeGreaterThan(0);
      expect(pooled.out.get(id)).toEqual(elements);
    }
  }, 120_000);

  // `quarry partition` prestarts a process before it reads its command line: the pool must take
  // it (same worker, same Node options), and it runs with no V8 flag (one would cost Node's code
  // cache of its built-ins).
  it.runIf(process.platform === 'linux')(
    'takes the process PartitionPool.prestart started, which runs with no V8 flag',
    async () => {
      const pid = PartitionPool.prestart();
      expect(pid).toBeGreaterThan(0);
      pool = new PartitionPool({ size: 1, smallLaneProcesses: 0 });
      const elements = await pool.partition(new TextEncoder().encode('hello\n'), { filename: 'note.txt', strategy: 'fast' });
      expect(elements.map((e) => e.text)).toEqual(['hello']);
      expect(pool.pids).toEqual([pid]);
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(args.filter((arg) => arg.startsWith('--max-'))).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!existsSync(corpusDocs))(
    'gives the same elements for corpus PDFs, HTML and DOCX (skipped: /work/shared/corpus/docs absent)',
    async () => {
      const names = ['reliance.pdf', 'multi-column-2p.pdf', 'example-10k-1p.html', 'handbook-1p.docx', 'stanley-cups.csv'];
      const docs = names.map((n) => doc(n, new Uint8Array(readFileSync(path.join(corpusDocs, n)))));
      const inProcess = await run(docs);
      pool = new PartitionPool({ size: 2 });
      const pooled = await run(docs, pool);
      expect(pooled.summary.counts).toMatchObject({ total: names.length, written: names.length, failed: 0 });
      for (const n of names) {
        expect(inProcess.out.get(n)!.length).toBeGreaterThan(0);
        expect(pooled.out.get(n)).toEqual(inProcess.out.get(n));
      }
      // The source's bytes were copied, not moved: they can be read again.
      expect((await docs[0]!.read(new AbortController().signal)).byteLength).toBeGreaterThan(0);
    },
    120_000,
  );

  it("partitions a plugin's format in the child processes, which import its module there", async () => {
    const withPlugin = createEngine()
      .use(nodesPlugin)
      .use(definePlugin({ name: 'my-html', engine: `^${ENGINE_VERSION}`, formats: [testFormat('my-html', ['text/html'], 'myHtmlPartitioner')] }));
    const out = new Map<string, string[]>();
    const job = withPlugin.run(
      withPlugin.build({ name: 'plugin-format', nodes: plan.nodes.map((n) => ({ name: n.name, type: n.type, subtype: n.subtype, settings: n.settings })) }),
      {
        source: listSource([
          doc('a.html', new TextEncoder().encode('<p>Ignored by the plugin format.</p>')),
          doc('b.md', new TextEncoder().encode('# Kept\n')),
        ]),
        destination: {
          write: async ({ document, elements }) =>
            void out.set(
              document.record_id,
              elements.map((e) => e.text),
            ),
        },
        services: new Services().set(PARTITION_POOL_SERVICE, (pool = new PartitionPool({ size: 1 }))),
      },
    );
    expect((await job.done).counts).toMatchObject({ written: 2, failed: 0 });
    expect(Object.fromEntries(out)).toEqual({ 'a.html': ['partitioned by my-html'], 'b.md': ['Kept'] });
  }, 60_000);

  it('keeps partitionFile error codes for a document that fails in a worker process', async () => {
    pool = new PartitionPool({ size: 1 });
    const e = await pool.partition(new Uint8Array(0), { filename: 'empty.txt' }).catch((err: unknown) => err);
    expect(isQuarryError(e) && e.code).toBe('FILE_EMPTY');
    const ok = await pool.partition(new TextEncoder().encode('Hello there, this is a sentence.'), { filename: 'hello.txt', unique_element_ids: false });
    expect(ok.map((el) => el.text)).toEqual(['Hello there, this is a sentence.']);
  }, 60_000);

  it('fails only the document whose process crashed (DOCUMENT_CRASHED), replaces the process and completes the rest', async () => {
    const enc = new TextEncoder();
    const docs = [...generated(6)];
    docs.splice(2, 0, doc('poison.txt', enc.encode('This document ends its worker.')));
    pool = new PartitionPool({ size: 2, workerUrl: crashingWorker });
    const { summary, out } = await run(docs, pool);
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: 7, written: 6, failed: 1 });
    expect(summary.failures).toEqual([expect.objectContaining({ record_id: 'poison.txt', node: 'partition', code: 'DOCUMENT_CRASHED' })]);
    expect(summary.failures[0]!.message).toBe('poison.txt: the partition process was killed by SIGSEGV');
    expect([...out.keys()].sort()).toEqual(
      generated(6)
        .map((d) => d.record_id)
        .sort(),
    );
    // A new process takes new documents.
    const again = await run(generated(3), pool);
    expect(again.summary.counts).toMatchObject({ written: 3, failed: 0 });
  }, 120_000);

  it('times out a document whose process never answers (the run node timeout): its process is replaced, the others complete', async () => {
    const enc = new TextEncoder();
    // The others are of one format, which both processes load before the timed run, and no lane
    // process starts on demand: the run's 4 s clock then holds the blocked document's wait alone,
    // never another document's wait for a process to start or a parser to load (on a loaded
    // machine a queued document once timed out waiting for a fresh lane process).
    const notes = (n: number): SourceDocument[] => generated(3 * n).filter((d) => d.filename.endsWith('.md'));
    pool = new PartitionPool({ size: 2, workerUrl: crashingWorker, smallLaneProcesses: 0 });
    await run(notes(2), pool);
    const booted = pool.pids;
    expect(booted).toHaveLength(2);
    const { summary } = await run([doc('hang.txt', enc.encode('This document blocks its worker.')), ...notes(4)], pool, { nodeTimeoutMs: 4_000 });
    expect(summary.counts).toMatchObject({ total: 5, written: 4, failed: 1 });
    expect(summary.failures).toEqual([expect.objectContaining({ record_id: 'hang.txt', code: 'NODE_TIMEOUT' })]);
    // The blocked process is killed (after the pool's abort grace) and a fresh one takes work.
    await until(() => booted.some((pid) => !alive(pid)));
    const again = await run(generated(4), pool);
    expect(again.summary.counts).toMatchObject({ written: 4, failed: 0 });
    expect(pool.pids.filter((pid) => !booted.includes(pid)).length).toBeGreaterThan(0);
  }, 120_000);

  it('fails a document past the pool time limit with NODE_TIMEOUT, naming the file', async () => {
    const enc = new TextEncoder();
    // The limit also covers the replacement process's first document, which imports its format and
    // warms up: a second is too tight for that on a loaded 2-core machine.
    pool = new PartitionPool({ size: 1, workerUrl: crashingWorker, documentTimeoutMs: 5_000 });
    const e = await pool.partition(enc.encode('blocks'), { filename: 'hang.txt' }).catch((err: unknown) => err);
    expect(e).toMatchObject({
      code: 'NODE_TIMEOUT',
      message: 'hang.txt: the partition process did not finish the task within 5000 ms',
      details: { filename: 'hang.txt', timeout_ms: 5000 },
    });
    await expect(pool.partition(enc.encode('Hello there, this is a sentence.'), { filename: 'ok.txt' })).resolves.toHaveLength(1);
  }, 60_000);

  it.runIf(process.platform === 'linux' && existsSync(corpusDocs))(
    'returns the memory a big document left in its process once the process idles (memory from /proc, in a process of its own)',
    () => {
      const script = fileURLToPath(new URL('../support/recycle-script.ts', import.meta.url));
      const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, path.join(corpusDocs, 'DA-619p.pdf')], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const m = JSON.parse(r.stdout) as { elements: number; freshMb: number; afterMb: number; recycledMb: number; replaced: boolean };
      expect(m.elements).toBeGreaterThan(1000);
      // The 619 pages grew the process; its idle replacement is back near where the first one started.
      expect(m.afterMb, JSON.stringify(m)).toBeGreaterThan(m.freshMb * 1.5);
      expect(m.replaced).toBe(true);
      expect(m.recycledMb, JSON.stringify(m)).toBeLessThan(m.freshMb * 1.25);
    },
    250_000,
  );

  it('stops a cancelled job within a second although a process is blocked, and the pool serves the next job', async () => {
    const enc = new TextEncoder();
    pool = new PartitionPool({ size: 2, workerUrl: crashingWorker });
    let cancelledAt = Infinity;
    const { summary } = await run([doc('hang.txt', enc.encode('This document blocks its worker.'))], pool, {
      onJob: (job) =>
        job.events$.subscribe((e) => {
          if (e.type === 'document_started') setTimeout(() => ((cancelledAt = Date.now()), job.cancel()), 300);
        }),
    });
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(summary.status).toBe('STOPPED');
    expect(summary.counts).toMatchObject({ total: 1, stopped: 1, written: 0 });
    const again = await run(generated(4), pool);
    expect(again.summary.counts).toMatchObject({ written: 4, failed: 0 });
  }, 120_000);
});

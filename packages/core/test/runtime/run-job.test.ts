import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bufferTime, filter, map, mergeMap, from } from 'rxjs';
import { createEngine, defineNode, MemoryStateStore, QuarryError, sleep, type Element, type Flow, type FlowResult, type JobEvent } from '../../src/index.js';
import { lineSplitter, memoryDestination, memorySource, planOf } from '../helpers.js';

const engine = createEngine();

function collect(events$: import('rxjs').Observable<JobEvent>): JobEvent[] {
  const out: JobEvent[] = [];
  events$.subscribe((e) => out.push(e));
  return out;
}

describe('runJob', () => {
  it('streams every document through the nodes to the destination', async () => {
    const dest = memoryDestination();
    const job = engine.run(planOf([lineSplitter]), { source: memorySource(['a\nb', 'c']), destination: dest });
    const events = collect(job.events$);
    const summary = await job.done;
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: 2, written: 2, failed: 0, elements: 3 });
    expect(dest.records.get('doc-0.txt')!.map((e) => e.text)).toEqual(['a', 'b']);
    expect(events[0]).toMatchObject({ type: 'job_started', total: 2 });
    expect(events.at(-1)!.type).toBe('job_finished');
    const doc0 = events.filter((e) => 'record_id' in e && e.record_id === 'doc-0.txt').map((e) => e.type);
    expect(doc0).toEqual(['document_started', 'node_finished', 'document_written']);
  });

  it('turns a warning a node logs for a document into a document_warning event and a summary entry', async () => {
    const logged: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (message: string, fields?: Record<string, unknown>) => logged.push({ message, ...(fields ? { fields } : {}) }),
      error() {},
    };
    const ocr = defineNode({
      type: 'prompter',
      subtype: 'ocr-like',
      settings: z.object({}),
      create: () => ({
        process(flow: Flow, ctx): Element[] {
          if (flow.elements.some((e) => e.text === 'korean')) ctx.logger.warn('no OCR data is installed for kor', { pages: [1] });
          return flow.elements;
        },
      }),
    });
    const job = engine.run(planOf([lineSplitter, ocr]), { source: memorySource(['latin', 'korean']), destination: memoryDestination(), logger });
    const events = collect(job.events$);
    const summary = await job.done;
    const warning = { record_id: 'doc-1.txt', filename: 'doc-1.txt', node: 'ocr-like', message: 'no OCR data is installed for kor', details: { pages: [1] } };
    expect(events.filter((e) => e.type === 'document_warning')).toEqual([{ type: 'document_warning', ...warning }]);
    expect(summary.status).toBe('COMPLETED');
    expect(summary.warnings).toEqual([warning]);
    // The job's logger still gets it, with the document and node.
    expect(logged).toEqual([{ message: 'no OCR data is installed for kor', fields: { pages: [1], record_id: 'doc-1.txt', node: 'ocr-like' } }]);
  });

  it('fails one broken document alone and goes on', async () => {
    const picky = defineNode({
      type: 'prompter',
      subtype: 'picky',
      settings: z.object({}),
      create: () => ({
        process(flow: Flow): Element[] {
          if (flow.elements.some((e) => e.text === 'bad')) throw new QuarryError('FILE_UNREADABLE', `cannot read ${flow.document.filename}`);
          if (flow.elements.some((e) => e.text === 'worse')) throw new TypeError('boom');
          return flow.elements;
        },
      }),
    });
    const dest = memoryDestination();
    const job = engine.run(planOf([lineSplitter, picky]), { source: memorySource(['ok', 'bad', 'fine', 'worse', 'good']), destination: dest, concurrency: 2 });
    const summary = await job.done;
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: 5, written: 3, failed: 2 });
    expect([...dest.records.keys()].sort()).toEqual(['doc-0.txt', 'doc-2.txt', 'doc-4.txt']);
    const byId = Object.fromEntries(summary.failures.map((f) => [f.record_id, f]));
    expect(byId['doc-1.txt']).toEqual({
      record_id: 'doc-1.txt',
      filename: 'doc-1.txt',
      node: 'picky',
      code: 'FILE_UNREADABLE',
      message: 'cannot read doc-1.txt',
    });
    expect(byId['doc-3.txt']).toMatchObject({ node: 'picky', code: 'NODE_FAILED', message: 'boom' });
    expect(summary.nodes.find((n) => n.node === 'picky')).toMatchObject({ success: 3, failure: 2 });
  });

  it('reports a destination failure per document', async () => {
    const dest = memoryDestination();
    const flaky = {
      async write(flow: Flow) {
        if (flow.document.record_id === 'doc-1.txt') throw new Error('disk full');
        await dest.write(flow);
      },
    };
    const summary = await engine.run(planOf([lineSplitter]), { source: memorySource(['a', 'b', 'c']), destination: flaky }).done;
    expect(summary.counts).toMatchObject({ written: 2, failed: 1 });
    expect(summary.failures[0]).toMatchObject({ record_id: 'doc-1.txt', node: 'destination', code: 'DESTINATION_WRITE_FAILED', message: 'disk full' });
  });

  it('keeps at most `concurrency` documents in flight and pulls the source lazily', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = defineNode({
      type: 'prompter',
      subtype: 'slow',
      settings: z.object({}),
      create: () => ({
        async process(flow: Flow) {
          inFlight++;
          peak = Math.max(peak, inFlight);
          await sleep(5);
          inFlight--;
          return flow.elements;
        },
      }),
    });
    const source = memorySource(Array.from({ length: 40 }, (_, i) => `t${i}`));
    const dest = memoryDestination();
    let maxAhead = 0;
    const watched = {
      ...dest,
      async write(flow: Flow) {
        maxAhead = Math.max(maxAhead, source.pulled - dest.writes.length);
        await dest.write(flow);
      },
    };
    const summary = await engine.run(planOf([lineSplitter, slow]), { source, destination: watched, concurrency: 3 }).done;
    expect(summary.counts.written).toBe(40);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
    expect(maxAhead).toBeLessThanOrEqual(3);
  });

  it('lets a destination that declares writeBehind take more writes than `concurrency`, and no more', async () => {
    let nodesNow = 0;
    let nodesPeak = 0;
    const busy = defineNode({
      type: 'prompter',
      subtype: 'busy',
      settings: z.object({}),
      create: () => ({
        async process(flow: Flow) {
          nodesPeak = Math.max(nodesPeak, ++nodesNow);
          await sleep(1);
          nodesNow--;
          return flow.elements;
        },
      }),
    });
    const run = async (writeBehind: number | undefined) => {
      let writing = 0;
      let peak = 0;
      const dest = memoryDestination();
      const slowWrites = {
        ...dest,
        ...(writeBehind === undefined ? {} : { writeBehind }),
        async write(flow: Flow) {
          peak = Math.max(peak, ++writing);
          await sleep(15);
          await dest.write(flow);
          writing--;
        },
      };
      const summary = await engine.run(planOf([lineSplitter, busy]), {
        source: memorySource(Array.from({ length: 30 }, (_, i) => `w${i}`)),
        destination: slowWrites,
        concurrency: 2,
      }).done;
      expect(summary.counts.written).toBe(30);
      expect([...dest.writes].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `doc-${i}.txt`).sort());
      return peak;
    };
    expect(await run(undefined)).toBeLessThanOrEqual(2);
    const behindPeak = await run(5);
    expect(behindPeak).toBeGreaterThan(2);
    expect(behindPeak).toBeLessThanOrEqual(2 + 5);
    expect(nodesPeak).toBeLessThanOrEqual(2);
  });

  it('slides the write-behind window: when a write behind ends, a document writing in its pull slot moves behind', async () => {
    // concurrency 1, writeBehind 2: doc-0 and doc-1 write behind; doc-2 finds the window full and
    // writes holding the only pull slot. When doc-0's write ends, doc-2 takes its place behind, so
    // doc-3 is pulled and written while doc-1 and doc-2 are still writing.
    const dest = memoryDestination();
    const started: string[] = [];
    const finishWrite = new Map<string, () => void>();
    const gated = {
      ...dest,
      writeBehind: 2,
      async write(flow: Flow) {
        started.push(flow.document.record_id);
        await new Promise<void>((r) => finishWrite.set(flow.document.record_id, r));
        await dest.write(flow);
      },
    };
    const until = async (cond: () => boolean): Promise<void> => {
      for (let i = 0; i < 200 && !cond(); i++) await sleep(2);
      expect(cond()).toBe(true);
    };
    const job = engine.run(planOf([lineSplitter]), { source: memorySource(['a', 'b', 'c', 'd']), destination: gated, concurrency: 1 });
    await until(() => started.length === 3);
    await sleep(20);
    expect(started).toEqual(['doc-0.txt', 'doc-1.txt', 'doc-2.txt']);
    finishWrite.get('doc-0.txt')!();
    await until(() => started.length === 4);
    expect(dest.writes).toEqual(['doc-0.txt']);
    for (const id of ['doc-1.txt', 'doc-2.txt', 'doc-3.txt']) finishWrite.get(id)!();
    const summary = await job.done;
    expect(summary.counts).toMatchObject({ total: 4, written: 4 });
  });

  it('ends STOPPED on cancel with nothing half-written', async () => {
    const gate = defineNode({
      type: 'prompter',
      subtype: 'gate',
      settings: z.object({}),
      create: () => ({
        process(flow: Flow, ctx) {
          if (flow.document.record_id < 'doc-2') return flow.elements;
          return new Promise<Element[]>((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
        },
      }),
    });
    const dest = memoryDestination();
    const job = engine.run(planOf([lineSplitter, gate]), { source: memorySource(['a', 'b', 'c', 'd', 'e', 'f']), destination: dest, concurrency: 2 });
    job.events$.pipe(filter((e) => e.type === 'document_written')).subscribe(() => {
      if (dest.writes.length === 2) setTimeout(() => job.cancel(), 20);
    });
    const summary = await job.done;
    expect(summary.status).toBe('STOPPED');
    expect(dest.writes.sort()).toEqual(['doc-0.txt', 'doc-1.txt']);
    expect(summary.counts.stopped).toBe(2);
    expect(summary.counts.failed).toBe(0);
    expect(summary.counts.total).toBeLessThan(6);
  });

  it('honours an external AbortSignal', async () => {
    const ac = new AbortController();
    ac.abort();
    const summary = await engine.run(planOf([lineSplitter]), { source: memorySource(['a']), destination: memoryDestination(), signal: ac.signal }).done;
    expect(summary.status).toBe('STOPPED');
    expect(summary.counts.written).toBe(0);
  });

  it('reports a node that never settles and fails it at the timeout', async () => {
    const hang = defineNode({
      type: 'prompter',
      subtype: 'hang',
      settings: z.object({}),
      create: () => ({ process: (flow: Flow) => (flow.document.record_id === 'doc-1.txt' ? new Promise<Element[]>(() => {}) : flow.elements) }),
    });
    const job = engine.run(planOf([lineSplitter, hang]), {
      source: memorySource(['a', 'b', 'c']),
      destination: memoryDestination(),
      stallWarningMs: 30,
      nodeTimeoutMs: 150,
    });
    const events = collect(job.events$);
    const summary = await job.done;
    expect(events.find((e) => e.type === 'node_stalled')).toMatchObject({ record_id: 'doc-1.txt', node: 'hang' });
    expect(summary.counts).toMatchObject({ written: 2, failed: 1 });
    expect(summary.failures[0]).toMatchObject({ record_id: 'doc-1.txt', node: 'hang', code: 'NODE_TIMEOUT' });
  });

  it('runs operator nodes that batch across documents, with per-document failures', async () => {
    const batches: number[] = [];
    const batcher = defineNode({
      type: 'embed',
      subtype: 'batcher',
      settings: z.object({}),
      create: () => ({
        operator: () => (flows$) =>
          flows$.pipe(
            bufferTime(20, undefined, 3),
            filter((b) => b.length > 0),
            mergeMap((batch) => {
              batches.push(batch.length);
              return from(
                batch.map(
                  (f): FlowResult =>
                    f.document.record_id === 'doc-4.txt'
                      ? { document: f.document, error: new QuarryError('NODE_FAILED', 'provider refused') }
                      : { ...f, elements: f.elements.map((e) => ({ ...e, embeddings: [e.text.length] })) },
                ),
              );
            }),
          ),
      }),
    });
    const dest = memoryDestination();
    const summary = await engine.run(planOf([lineSplitter, batcher]), {
      source: memorySource(['a', 'bb', 'ccc', 'dddd', 'e', 'ff', 'g']),
      destination: dest,
      concurrency: 4,
    }).done;
    expect(summary.counts).toMatchObject({ written: 6, failed: 1 });
    expect(summary.failures[0]).toMatchObject({ record_id: 'doc-4.txt', node: 'batcher', message: 'provider refused' });
    expect(dest.records.get('doc-3.txt')![0]!.embeddings).toEqual([4]);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('branches one flow to several destinations', async () => {
    const a = memoryDestination();
    const b = memoryDestination();
    const summary = await engine.run(planOf([lineSplitter]), { source: memorySource(['x', 'y']), destination: [a, b] }).done;
    expect(summary.counts.written).toBe(2);
    expect([...a.records.keys()]).toEqual([...b.records.keys()]);
    expect(b.records.get('doc-1.txt')![0]!.text).toBe('y');
  });

  it('skips unchanged documents on an incremental run and picks up a changed one', async () => {
    const state = new MemoryStateStore();
    const plan = planOf([lineSplitter]);
    const first = await engine.run(plan, {
      source: memorySource(['a', 'b', 'c'], ['1', '1', '1']),
      destination: memoryDestination(),
      state,
      reprocessAll: false,
    }).done;
    expect(first.counts).toMatchObject({ written: 3, skipped: 0 });
    const dest = memoryDestination();
    const second = await engine.run(plan, { source: memorySource(['a', 'B', 'c'], ['1', '2', '1']), destination: dest, state, reprocessAll: false }).done;
    expect(second.counts).toMatchObject({ total: 3, written: 1, skipped: 2 });
    expect(dest.writes).toEqual(['doc-1.txt']);
    const full = await engine.run(plan, { source: memorySource(['a', 'B', 'c'], ['1', '2', '1']), destination: memoryDestination(), state, reprocessAll: true })
      .done;
    expect(full.counts).toMatchObject({ written: 3, skipped: 0 });
  });

  it('does not record a version when the write failed, so the next run retries it', async () => {
    const state = new MemoryStateStore();
    const plan = planOf([lineSplitter]);
    const failing = {
      async write() {
        throw new Error('offline');
      },
    };
    await engine.run(plan, { source: memorySource(['a'], ['1']), destination: failing, state, reprocessAll: false }).done;
    expect(await state.get('doc-0.txt')).toBeUndefined();
    const retry = await engine.run(plan, { source: memorySource(['a'], ['1']), destination: memoryDestination(), state, reprocessAll: false }).done;
    expect(retry.counts.written).toBe(1);
  });

  it('fails the job, not the process, when the source cannot list', async () => {
    const broken = {
      // biome-ignore lint/correctness/useYield: a source that fails before its first document.
      async *list(): AsyncIterable<never> {
        throw new QuarryError('SOURCE_NOT_FOUND', 'no such directory: /nope');
      },
    };
    const summary = await engine.run(planOf([lineSplitter]), { source: broken, destination: memoryDestination() }).done;
    expect(summary.status).toBe('FAILED');
    expect(summary.error).toEqual({ code: 'SOURCE_NOT_FOUND', message: 'no such directory: /nope' });
  });

  it('maps events into a progress stream', async () => {
    const job = engine.run(planOf([lineSplitter]), { source: memorySource(['a', 'b', 'c']), destination: memoryDestination() });
    const progress: number[] = [];
    job.events$
      .pipe(
        filter((e) => e.type === 'document_written'),
        map((_, i) => i + 1),
      )
      .subscribe((n) => progress.push(n));
    await job.done;
    expect(progress).toEqual([1, 2, 3]);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createEngine,
  defineNode,
  isQuarryError,
  type Element,
  type Flow,
  type SourceConnector,
  type SourceDocument,
  type StreamedDocument,
} from '../../src/index.js';
import { lineSplitter, memoryDestination, memorySource, planOf } from '../helpers.js';

const engine = createEngine();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const shout = defineNode({
  type: 'prompter',
  subtype: 'shout',
  settings: z.object({}),
  create: () => ({
    process(flow: Flow): Element[] {
      if (flow.elements.some((e) => e.text === 'bad')) throw new Error(`cannot shout in ${flow.document.filename}`);
      return flow.elements.map((e) => ({ ...e, text: e.text.toUpperCase() }));
    },
  }),
});

/** A source of `n` one-line documents that counts how many were pulled and whether it was closed. */
function countingSource(n: number): SourceConnector & { pulled: number; closed: boolean } {
  const src = {
    pulled: 0,
    closed: false,
    async *list(): AsyncIterable<SourceDocument> {
      try {
        for (let i = 0; i < n; i++) {
          src.pulled++;
          yield { record_id: `doc-${i}`, filename: `doc-${i}.txt`, data_source: {}, read: async () => new TextEncoder().encode(`line of ${i}`) };
        }
      } finally {
        src.closed = true;
      }
    },
  };
  return src;
}

describe('engine.stream', () => {
  it('yields each document with its elements after every node, and a failed one as an item with its error', async () => {
    const got: StreamedDocument[] = [];
    const stream = engine.stream(planOf([lineSplitter, shout]), { source: memorySource(['a\nb', 'bad', 'c']) });
    for await (const doc of stream) got.push(doc);
    got.sort((x, y) => x.record_id.localeCompare(y.record_id));
    expect(got.map((d) => [d.record_id, d.elements.map((e) => e.text)])).toEqual([
      ['doc-0.txt', ['A', 'B']],
      ['doc-1.txt', []],
      ['doc-2.txt', ['C']],
    ]);
    expect(got[1]!.error).toEqual({ node: 'shout', code: 'NODE_FAILED', message: 'cannot shout in doc-1.txt' });
    expect(got[0]!.error).toBeUndefined();
    const summary = await stream.done;
    expect(summary).toMatchObject({ status: 'COMPLETED', counts: { total: 3, written: 2, failed: 1, elements: 3 } });
  });

  it('writes to the given destinations too, before yielding', async () => {
    const dest = memoryDestination();
    const seen: number[] = [];
    for await (const doc of engine.stream(planOf([lineSplitter]), { source: memorySource(['a', 'b\nc']), destination: dest })) {
      expect(dest.records.get(doc.record_id)).toEqual(doc.elements);
      seen.push(doc.elements.length);
    }
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('keeps the source at most concurrency + buffer documents ahead of a slow loop', async () => {
    const source = countingSource(120);
    let consumed = 0;
    let ahead = 0;
    for await (const _doc of engine.stream(planOf([lineSplitter]), { source, concurrency: 3, buffer: 2 })) {
      await sleep(2);
      consumed++;
      ahead = Math.max(ahead, source.pulled - consumed);
    }
    expect(consumed).toBe(120);
    // The pulled-but-not-consumed documents: 3 in the nodes, 2 buffered, the one the loop holds.
    expect(ahead).toBeLessThanOrEqual(3 + 2 + 1);
  });

  it("runs ahead of the loop when the buffer allows it (the bound above is the buffer's doing)", async () => {
    const source = countingSource(120);
    let ahead = 0;
    let consumed = 0;
    for await (const _doc of engine.stream(planOf([lineSplitter]), { source, concurrency: 3, buffer: 1000 })) {
      await sleep(2);
      consumed++;
      ahead = Math.max(ahead, source.pulled - consumed);
    }
    expect(ahead).toBeGreaterThan(50);
  });

  it('cancels the job when the loop breaks: the source stops being pulled and is closed, the job ends STOPPED without error', async () => {
    const source = countingSource(1000);
    const stream = engine.stream(planOf([lineSplitter]), { source, concurrency: 2, buffer: 1 });
    const got: string[] = [];
    for await (const doc of stream) {
      got.push(doc.record_id);
      if (got.length === 2) break;
    }
    const summary = await stream.done;
    const pulled = source.pulled;
    expect(pulled).toBeLessThanOrEqual(2 + 2 + 1 + 1);
    expect(source.closed).toBe(true);
    expect(summary.status).toBe('STOPPED');
    expect(summary.error).toBeUndefined();
    expect(summary.counts.failed).toBe(0);
    expect(summary.failures).toEqual([]);
    await sleep(50);
    expect(source.pulled).toBe(pulled);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('counts a document whose write was waiting for room when the loop broke as stopped, not failed', async () => {
    const stream = engine.stream(planOf([lineSplitter]), { source: countingSource(10), concurrency: 1, buffer: 0 });
    for await (const _doc of stream) {
      // Long enough for the next document to reach its write and wait there for the loop.
      await sleep(50);
      break;
    }
    const summary = await stream.done;
    expect(summary.counts).toMatchObject({ written: 1, failed: 0, stopped: 1 });
  });

  it("cancels the job when the loop throws, and the loop's error comes out", async () => {
    const source = countingSource(1000);
    const stream = engine.stream(planOf([lineSplitter]), { source, concurrency: 2 });
    await expect(
      (async () => {
        for await (const doc of stream) if (doc.record_id === 'doc-1') throw new Error('host app gave up');
      })(),
    ).rejects.toThrow('host app gave up');
    expect((await stream.done).status).toBe('STOPPED');
    expect(source.closed).toBe(true);
  });

  it("throws when the job cannot run, with the error's code", async () => {
    const stream = engine.stream(planOf([lineSplitter]), { source: { type: 'nowhere' } });
    const err = await (async () => {
      for await (const _doc of stream) return undefined;
      return undefined;
    })().catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('UNKNOWN_CONNECTOR');
    expect((await stream.done).status).toBe('FAILED');
  });

  it("throws JOB_ABORTED when the caller's signal cancels the job mid-loop", async () => {
    const ac = new AbortController();
    const got: string[] = [];
    const err = await (async () => {
      for await (const doc of engine.stream(planOf([lineSplitter]), { source: countingSource(1000), signal: ac.signal })) {
        got.push(doc.record_id);
        if (got.length === 3) ac.abort();
      }
    })().catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('JOB_ABORTED');
    expect(got.length).toBeGreaterThanOrEqual(3);
  });

  it('rejects a buffer that is not a whole number', () => {
    expect(() => engine.stream(planOf([lineSplitter]), { source: memorySource(['a']), buffer: -1 })).toThrow(/buffer/);
  });
});

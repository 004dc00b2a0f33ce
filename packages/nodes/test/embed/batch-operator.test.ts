import { isFailedFlow, isQuarryError, silentLogger, type Element, type Flow, type FlowResult, type SourceDocument } from '@quarry/core';
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { embedOperator, type BatchOptions, type EmbedBackend } from '../../src/embed/batch-operator.js';
import { providerError } from '../../src/providers/errors.js';
import { fakeVector } from '../support/provider-wire.js';

const DIMS = 4;

function doc(id: string): SourceDocument {
  return { record_id: id, filename: id, data_source: {}, read: async () => new Uint8Array() };
}

function flow(id: string, texts: string[]): Flow {
  const elements: Element[] = texts.map((text, i) => ({ element_id: `${id}-${i}`, type: 'CompositeElement', text, metadata: { filename: id } }));
  return { document: doc(id), elements };
}

interface Recorder extends EmbedBackend<string> {
  batches: string[][];
  maxInFlight: number;
}

/** A backend whose vectors are a function of the text; it records batches and concurrency. */
function backend(opts: { fail?: (batch: string[]) => Error | undefined; hold?: Promise<void>; dims?: number; maxInputTokens?: number } = {}): Recorder {
  let inFlight = 0;
  const rec: Recorder = {
    label: 'test model',
    dimensions: DIMS,
    maxInputTokens: opts.maxInputTokens,
    batches: [],
    maxInFlight: 0,
    prepare: (text) => ({ tokens: text.split(' ').length, payload: text }),
    embed: async (batch, _tokens, signal) => {
      rec.batches.push(batch);
      inFlight++;
      rec.maxInFlight = Math.max(rec.maxInFlight, inFlight);
      try {
        await new Promise<void>((r) => setImmediate(r));
        if (opts.hold) {
          await Promise.race([
            opts.hold,
            new Promise((_, reject) => {
              if (signal.aborted) reject(signal.reason);
              signal.addEventListener('abort', () => reject(signal.reason), { once: true });
            }),
          ]);
        }
        const err = opts.fail?.(batch);
        if (err) throw err;
        return batch.map((t) => fakeVector(t, opts.dims ?? DIMS));
      } finally {
        inFlight--;
      }
    },
  };
  return rec;
}

const ctx = (signal: AbortSignal = new AbortController().signal) => ({ signal, logger: silentLogger, nodeName: 'embed' });

async function run(flows: Flow[], b: EmbedBackend<string>, options: Partial<BatchOptions> = {}, signal?: AbortSignal): Promise<FlowResult[]> {
  const o: BatchOptions = { maxInputs: 4, maxTokens: 1000, flushMs: 1000, concurrency: 1, ...options };
  return lastValueFrom(from(flows).pipe(embedOperator(b, o, ctx(signal)), toArray()));
}

function byId(results: FlowResult[]): Map<string, FlowResult> {
  return new Map(results.map((r) => [r.document.record_id, r]));
}

describe('embedOperator', () => {
  it('batches chunks across documents and writes each chunk its own vector', async () => {
    const b = backend();
    const flows = [flow('a', ['a0', 'a1']), flow('b', ['b0', 'b1', 'b2']), flow('c', ['c0'])];
    const results = await run(flows, b);
    expect(b.batches).toEqual([
      ['a0', 'a1', 'b0', 'b1'],
      ['b2', 'c0'],
    ]);
    expect(results).toHaveLength(3);
    for (const f of flows) {
      const r = byId(results).get(f.document.record_id)!;
      expect(isFailedFlow(r)).toBe(false);
      const els = (r as Flow).elements;
      expect(els.map((e) => e.text)).toEqual(f.elements.map((e) => e.text));
      for (const e of els) expect(e.embeddings).toEqual(fakeVector(e.text, DIMS));
    }
  });

  it('closes a batch before it would exceed the token budget', async () => {
    const b = backend();
    await run([flow('a', ['one two three', 'four five', 'six seven eight nine', 'ten'])], b, { maxTokens: 5 });
    expect(b.batches).toEqual([
      ['one two three', 'four five'],
      ['six seven eight nine', 'ten'],
    ]);
  });

  it('flushes a partial batch after flushMs while the input is still open', async () => {
    const b = backend();
    const input = new Subject<Flow>();
    const results: FlowResult[] = [];
    const sub = input.pipe(embedOperator(b, { maxInputs: 100, maxTokens: 1000, flushMs: 20, concurrency: 1 }, ctx())).subscribe((r) => results.push(r));
    input.next(flow('a', ['x', 'y']));
    await expect.poll(() => results.length).toBe(1);
    expect(b.batches).toEqual([['x', 'y']]);
    sub.unsubscribe();
  });

  it('with flushMs 0, sends at once when a slot is free and gathers while busy', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const b = backend({ hold });
    const input = new Subject<Flow>();
    const results: FlowResult[] = [];
    const done = new Promise<void>((resolve) =>
      input
        .pipe(embedOperator(b, { maxInputs: 10, maxTokens: 1000, flushMs: 0, concurrency: 1 }, ctx()))
        .subscribe({ next: (r) => results.push(r), complete: resolve }),
    );
    input.next(flow('a', ['a0']));
    input.next(flow('b', ['b0']));
    input.next(flow('c', ['c0']));
    release();
    input.complete();
    await done;
    expect(b.batches).toEqual([['a0'], ['b0', 'c0']]);
    expect(results).toHaveLength(3);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const b = backend();
    const flows = Array.from({ length: 12 }, (_, i) => flow(`d${i}`, [`t${i}`]));
    const results = await run(flows, b, { maxInputs: 1, concurrency: 3, flushMs: 0 });
    expect(results.filter((r) => !isFailedFlow(r))).toHaveLength(12);
    expect(b.batches).toHaveLength(12);
    expect(b.maxInFlight).toBeLessThanOrEqual(3);
    expect(b.maxInFlight).toBeGreaterThan(1);
  });

  it('stays within its concurrency when the consumer feeds the next document from inside a result', async () => {
    // 'b' is too long: with prepareOnDispatch it fails while a batch is being cut, inside the pump.
    const b = backend({ maxInputTokens: 1 });
    const input = new Subject<Flow>();
    const queue = [flow('b', ['too long']), flow('c', ['c0']), flow('d', ['d0', 'd1'])];
    const results: FlowResult[] = [];
    await new Promise<void>((resolve) => {
      input.pipe(embedOperator(b, { maxInputs: 2, maxTokens: 1000, flushMs: 0, concurrency: 1, prepareOnDispatch: true }, ctx())).subscribe({
        next: (r) => {
          results.push(r);
          const next = queue.shift();
          if (next) input.next(next);
          else input.complete();
        },
        complete: resolve,
      });
      input.next(flow('a', ['a0']));
    });
    expect(results.map((r) => `${r.document.record_id}:${isFailedFlow(r) ? 'failed' : 'ok'}`)).toEqual(['a:ok', 'b:failed', 'c:ok', 'd:ok']);
    expect(b.maxInFlight).toBe(1);
  });

  it('a failed request fails only the documents in it', async () => {
    const b = backend({ fail: (batch) => (batch.includes('b1') ? providerError('PROVIDER_UNAVAILABLE', 'HTTP 500 after 6 attempts') : undefined) });
    const results = byId(await run([flow('a', ['a0', 'a1']), flow('b', ['b0', 'b1']), flow('c', ['c0', 'c1', 'c2'])], b, { maxInputs: 2 }));
    expect(isFailedFlow(results.get('a')!)).toBe(false);
    const failed = results.get('b')!;
    expect(isFailedFlow(failed) && isQuarryError(failed.error) && failed.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(isFailedFlow(results.get('c')!)).toBe(false);
    for (const e of (results.get('c') as Flow).elements) expect(e.embeddings).toEqual(fakeVector(e.text, DIMS));
  });

  it('when a provider rejects a mixed batch as invalid, retries each document alone so only the culprit fails', async () => {
    const b = backend({ fail: (batch) => (batch.includes('poison') ? providerError('PROVIDER_BAD_REQUEST', 'input too long') : undefined) });
    const results = byId(await run([flow('a', ['a0']), flow('b', ['poison', 'b1']), flow('c', ['c0'])], b, { maxInputs: 10 }));
    expect(b.batches[0]).toEqual(['a0', 'poison', 'b1', 'c0']);
    expect(
      b.batches
        .slice(1)
        .map((x) => x.join(','))
        .sort(),
    ).toEqual(['a0', 'c0', 'poison,b1']);
    expect(isFailedFlow(results.get('a')!)).toBe(false);
    expect(isFailedFlow(results.get('c')!)).toBe(false);
    const bad = results.get('b')!;
    expect(isFailedFlow(bad) && isQuarryError(bad.error) && bad.error.code).toBe('PROVIDER_BAD_REQUEST');
  });

  it('fails a document with an over-long chunk before sending anything for it', async () => {
    const b = backend({ maxInputTokens: 3 });
    const results = byId(await run([flow('a', ['fine']), flow('b', ['ok', 'one two three four'])], b));
    const bad = results.get('b')!;
    expect(isFailedFlow(bad)).toBe(true);
    const err = isFailedFlow(bad) ? bad.error : undefined;
    expect(isQuarryError(err) && err.code).toBe('EMBED_INPUT_TOO_LONG');
    expect((err as Error).message).toMatch(/element 1 .* has 4 tokens; test model accepts at most 3/);
    expect(b.batches).toEqual([['fine']]);
  });

  it('with prepareOnDispatch, tokenizes inputs only when their batch is cut', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const b = backend({ hold });
    const prepared: string[] = [];
    const counting: EmbedBackend<string> = { ...b, prepare: (t) => (prepared.push(t), b.prepare(t)) };
    const input = new Subject<Flow>();
    const results: FlowResult[] = [];
    const done = new Promise<void>((resolve) =>
      input
        .pipe(embedOperator(counting, { maxInputs: 2, maxTokens: Infinity, flushMs: 0, concurrency: 1, prepareOnDispatch: true }, ctx()))
        .subscribe({ next: (r) => results.push(r), complete: resolve }),
    );
    input.next(flow('a', ['a0']));
    input.next(flow('b', ['b0', 'b1']));
    input.next(flow('c', ['c0']));
    expect(prepared).toEqual(['a0']);
    release();
    input.complete();
    await done;
    expect(prepared).toEqual(['a0', 'b0', 'b1', 'c0']);
    expect(b.batches).toEqual([['a0'], ['b0', 'b1'], ['c0']]);
    expect(results.filter((r) => !isFailedFlow(r))).toHaveLength(3);
  });

  it('with prepareOnDispatch, an over-long input fails its document and is never sent', async () => {
    const b = backend({ maxInputTokens: 2 });
    const results = byId(await run([flow('a', ['a0']), flow('b', ['b0', 'too long here']), flow('c', ['c0'])], b, { maxInputs: 10, prepareOnDispatch: true }));
    expect(b.batches.flat()).not.toContain('too long here');
    expect(b.batches.flat()).toEqual(expect.arrayContaining(['a0', 'c0']));
    const bad = results.get('b')!;
    expect(isFailedFlow(bad) && isQuarryError(bad.error) && bad.error.code).toBe('EMBED_INPUT_TOO_LONG');
    expect(isFailedFlow(results.get('a')!)).toBe(false);
    expect(isFailedFlow(results.get('c')!)).toBe(false);
  });

  it('fails the batch when vectors have the wrong dimension count', async () => {
    const b = backend({ dims: 3 });
    const [r] = await run([flow('a', ['x'])], b);
    expect(isFailedFlow(r!) && isQuarryError(r.error) && r.error.code).toBe('EMBED_DIMENSIONS_MISMATCH');
  });

  it('passes a document without elements through, and sends an empty text as one space', async () => {
    const b = backend();
    const results = byId(await run([flow('empty', []), flow('a', [''])], b));
    expect((results.get('empty') as Flow).elements).toEqual([]);
    expect(b.batches).toEqual([[' ']]);
    expect((results.get('a') as Flow).elements[0]!.embeddings).toEqual(fakeVector(' ', DIMS));
  });

  it('on job abort, fails every waiting and in-flight document and completes', async () => {
    const b = backend({ hold: new Promise<void>(() => undefined) });
    const controller = new AbortController();
    const input = new Subject<Flow>();
    const results: FlowResult[] = [];
    const done = new Promise<void>((resolve) =>
      input
        .pipe(embedOperator(b, { maxInputs: 1, maxTokens: 1000, flushMs: 0, concurrency: 1 }, ctx(controller.signal)))
        .subscribe({ next: (r) => results.push(r), complete: resolve }),
    );
    input.next(flow('a', ['a0']));
    input.next(flow('b', ['b0']));
    await expect.poll(() => b.batches.length).toBe(1);
    controller.abort(new Error('job cancelled'));
    input.complete();
    await done;
    expect(results).toHaveLength(2);
    for (const r of results) expect(isFailedFlow(r) && isQuarryError(r.error) && r.error.code).toBe('JOB_ABORTED');
  });
});

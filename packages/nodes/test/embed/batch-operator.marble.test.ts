/**
 * Marble tests of when the embedder cuts its batches, in virtual time (the operator's flush timer
 * runs on the injected scheduler). Letters of the source are documents; the expected marbles show
 * when a request goes to the model, with its inputs joined. The model never answers here, so every
 * request stays in flight.
 */
import { silentLogger, type Element, type Flow } from '@quarry/core';
import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { embedOperator, type BatchOptions, type EmbedBackend } from '../../src/embed/batch-operator.js';

function flow(id: string, texts: string[]): Flow {
  const elements: Element[] = texts.map((text, i) => ({ element_id: `${id}-${i}`, type: 'CompositeElement', text, metadata: { filename: id } }));
  return { document: { record_id: id, filename: id, data_source: {}, read: async () => new Uint8Array() }, elements };
}

/** The requests the operator sends for `source`, as `+`-joined inputs. */
function requests(source: Observable<Flow>, options: BatchOptions): Observable<string> {
  return new Observable<string>((sub) => {
    const backend: EmbedBackend<string> = {
      label: 'test model',
      dimensions: undefined,
      maxInputTokens: 3,
      prepare: (text) => ({ tokens: text.split(' ').length, payload: text }),
      embed: (batch) => {
        sub.next(batch.join('+'));
        return new Promise<number[][]>(() => undefined);
      },
    };
    const ctx = { signal: new AbortController().signal, logger: silentLogger, nodeName: 'embed' };
    return source.pipe(embedOperator(backend, options, ctx)).subscribe({ error: (e: unknown) => sub.error(e) });
  });
}

describe('embedOperator in virtual time', () => {
  it('flushes a partial batch flushMs after its oldest input, and a full one at once', () => {
    const ts = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    ts.run(({ hot, expectObservable }) => {
      const source = hot('a 3ms b 10ms c', { a: flow('a', ['a0']), b: flow('b', ['b0']), c: flow('c', ['c0', 'c1', 'c2', 'c3']) });
      const out = requests(source, { maxInputs: 3, maxTokens: 100, flushMs: 10, concurrency: 4, scheduler: ts });
      // a and b wait for a third input until 10; c fills a batch at 15, and its last input waits.
      expectObservable(out).toBe('10ms x 4ms y 9ms z', { x: 'a0+b0', y: 'c0+c1+c2', z: 'c3' });
    });
  });

  it('cuts by tokens, and fails an over-long input alone without sending it', () => {
    const ts = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    ts.run(({ hot, expectObservable }) => {
      const source = hot('a-b-c', { a: flow('a', ['one two', 'three four']), b: flow('b', ['far too many tokens']), c: flow('c', ['five six']) });
      const out = requests(source, { maxInputs: 10, maxTokens: 5, flushMs: 20, concurrency: 4, scheduler: ts });
      // a's two inputs (4 tokens) wait; b is over the model's 3 tokens and never sent; c makes 6 > 5.
      expectObservable(out).toBe('----x 19ms y', { x: 'one two+three four', y: 'five six' });
    });
  });
});

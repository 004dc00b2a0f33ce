/**
 * Marble tests of an operator node's stage: what passes by the operator, how its results are
 * matched back to documents, and when the stage completes. Letters are documents; `x` and `s`
 * are a failed and a stopped one, which must bypass the operator untouched.
 */
import { bufferCount, concatMap, delay, from, map, mergeMap, type OperatorFunction } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import type { PlanNode } from '../../src/plan/plan.js';
import type { Flow, FlowResult, OperatorNode, SourceDocument } from '../../src/plugin/types.js';
import { DocumentSignals, type DocumentItem } from '../../src/runtime/document-item.js';
import type { JobEvent, NodeStats } from '../../src/runtime/events.js';
import { nodeStage, type StageContext } from '../../src/runtime/node-stages.js';
import type { NodeWatchdog } from '../../src/runtime/node-watchdog.js';

const node = { name: 'op', type: 'embed', subtype: 'test', settings: {} } as unknown as PlanNode;

function doc(id: string): SourceDocument {
  return { record_id: id, filename: `${id}.txt`, data_source: {}, read: async () => new Uint8Array() };
}

/** A document item per marble letter: `x` has failed upstream, `s` was stopped. */
function items(letters: string): Record<string, DocumentItem> {
  const out: Record<string, DocumentItem> = {};
  for (const l of letters) {
    const item: DocumentItem = { doc: doc(l), elements: [{ element_id: l, type: 'NarrativeText', text: l, metadata: {} }], started: 0 };
    if (l === 'x') item.failure = { record_id: 'x', filename: 'x.txt', node: 'before', code: 'NODE_FAILED', message: 'failed upstream' };
    if (l === 's') item.stopped = true;
    out[l] = item;
  }
  return out;
}

interface Stage {
  stage: OperatorFunction<DocumentItem, DocumentItem>;
  stats: NodeStats;
  events: JobEvent[];
  warnings: string[];
}

function stageOf(operator: OperatorFunction<Flow, FlowResult>): Stage {
  const stats: NodeStats = { node: 'op', type: 'embed', subtype: 'test', success: 0, failure: 0, ms: 0 };
  const events: JobEvent[] = [];
  const warnings: string[] = [];
  const signal = new AbortController().signal;
  const ctx: StageContext = {
    jobId: 'job',
    signal,
    stats: [stats],
    emit: (e) => void events.push(e),
    logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} },
    stallWarningMs: 60_000,
    signals: new DocumentSignals(signal),
    // Operator stages time nothing per call; the watchdog is for plain nodes.
    watchdog: undefined as unknown as NodeWatchdog,
  };
  const inst: OperatorNode = { operator: () => operator };
  return { stage: nodeStage(ctx, node, 0, inst), stats, events, warnings };
}

/** Upper-cases every element's text: a stand-in for an operator's work. */
const upper = (f: Flow): FlowResult => ({ document: f.document, elements: f.elements.map((e) => ({ ...e, text: e.text.toUpperCase() })) });

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('operator node stage (marbles)', () => {
  it('lets failed and stopped documents pass by at once while the others wait for the operator', () => {
    const v = items('axbsc');
    const { stage, stats, events } = stageOf((flows) => flows.pipe(delay(3), map(upper)));
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a-x-b-s-c|', v).pipe(stage)).toBe('--xa--sb---(c|)', v);
    });
    // Items are updated in place: a, b and c carry the operator's elements, x and s their own.
    expect([v.a, v.b, v.c, v.x, v.s].map((i) => i!.elements[0]!.text)).toEqual(['A', 'B', 'C', 'x', 's']);
    expect(stats).toMatchObject({ success: 3, failure: 0 });
    expect(events.map((e) => e.type)).toEqual(['node_finished', 'node_finished', 'node_finished']);
  });

  it('matches a batching operator’s results back to their documents, in the order it emits them', () => {
    const v = items('abcd');
    // Batches of two, answered in reverse: results arrive out of document order.
    const batching: OperatorFunction<Flow, FlowResult> = (flows) =>
      flows.pipe(
        bufferCount(2),
        concatMap((batch) => from(batch.reverse().map(upper))),
      );
    const { stage, stats } = stageOf(batching);
    scheduler().run(({ cold, expectObservable }) => {
      // A group takes as many frames as its characters: (ba) at 2, (dc) at 6, the end at 10.
      expectObservable(cold('a-b-c-d---|', v).pipe(stage)).toBe('--(ba)(dc)|', v);
    });
    expect(stats.success).toBe(4);
  });

  it('turns a failed flow result into that document’s failure, with the node named by the operator', () => {
    const v = items('ab');
    const failing: OperatorFunction<Flow, FlowResult> = (flows) =>
      flows.pipe(
        map(
          (f): FlowResult =>
            f.document.record_id === 'b' ? { document: f.document, error: new QuarryError('PROVIDER_ERROR', 'no vector for b'), node: 'embedder' } : upper(f),
        ),
      );
    const { stage, stats } = stageOf(failing);
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a-b|', v).pipe(stage)).toBe('a-b|', v);
    });
    expect(v.b!.failure).toEqual({ record_id: 'b', filename: 'b.txt', node: 'embedder', code: 'PROVIDER_ERROR', message: 'no vector for b' });
    expect(v.a!.failure).toBeUndefined();
    expect(stats).toMatchObject({ success: 1, failure: 1 });
  });

  it('drops, with a warning, a result for a document the operator was never given', () => {
    const v = items('a');
    const stray: OperatorFunction<Flow, FlowResult> = (flows) => flows.pipe(mergeMap((f) => from([{ document: doc('ghost'), elements: [] }, upper(f)])));
    const { stage, warnings } = stageOf(stray);
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a|', v).pipe(stage)).toBe('a|', v);
    });
    expect(warnings).toEqual(['operator node emitted a document it was not given']);
  });

  it('completes only when both the bypass and the operator have completed', () => {
    const v = items('ax');
    const { stage } = stageOf((flows) => flows.pipe(delay(5), map(upper)));
    scheduler().run(({ cold, expectObservable }) => {
      // The input ends at frame 2, the operator's last result comes at frame 5: the stage ends then.
      expectObservable(cold('ax|', v).pipe(stage)).toBe('-x---(a|)', v);
    });
  });
});

import { isQuarryError, QuarryError, type Element, type Flow, type FlowResult, type OperatorContext } from '@quarry/core';
import { BatchQueue } from '@quarry/core/concurrency';
import { Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { providerError } from '../providers/errors.js';

/** One input after tokenization: its token count and whatever the backend sends (text or ids). */
export interface PreparedInput<P> {
  tokens: number;
  payload: P;
}

/** What the batching operator needs from an embedding model. */
export interface EmbedBackend<P> {
  /** `provider/model`, for messages. */
  readonly label: string;
  /** Vector length every answer must have (checked), when known. */
  readonly dimensions: number | undefined;
  /**
   * Largest input in tokens, enforced before sending; undefined when only the provider can count
   * exactly (its own error then fails the document).
   */
  readonly maxInputTokens: number | undefined;
  prepare(text: string): PreparedInput<P>;
  embed(batch: P[], tokens: number, signal: AbortSignal): Promise<number[][]>;
}

/** How inputs are grouped into requests. */
export interface BatchOptions {
  /** Most inputs per request. */
  maxInputs: number;
  /** Most tokens per request (a single larger input still goes alone). */
  maxTokens: number;
  /** How long a partial batch may wait for more inputs, in ms (0: send as soon as a slot is free). */
  flushMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /**
   * Tokenize each input when its batch is cut rather than when its document arrives. For a local
   * model this keeps tokenization off the cores while inference runs (as a direct call does);
   * batches are then cut by count, and by tokens only among inputs already examined.
   */
  prepareOnDispatch?: boolean;
  /** Where the flush timer runs (default rxjs' `asyncScheduler`; tests pass a `TestScheduler`). */
  scheduler?: SchedulerLike;
}

interface DocEntry {
  flow: Flow;
  vectors: Array<number[] | undefined>;
  remaining: number;
  done: boolean;
}

interface Item<P> {
  entry: DocEntry;
  index: number;
  text: string;
  /** Set once the input is tokenized. */
  prepared?: PreparedInput<P>;
}

/** Text sent for an element: empty texts become one space, which every provider accepts. */
function inputText(el: Element): string {
  return el.text && el.text.length > 0 ? el.text : ' ';
}

function tooLong(flow: Flow, index: number, tokens: number, max: number, label: string): QuarryError {
  const el = flow.elements[index]!;
  return providerError(
    'EMBED_INPUT_TOO_LONG',
    `element ${index} (${el.type}, ${el.text.length} characters) of "${flow.document.record_id}" has ${tokens} tokens; ${label} accepts at most ${max}. Lower the chunker's max_characters.`,
    { element_index: index, element_id: el.element_id, tokens, max_tokens: max },
  );
}

function cancelled(signal: AbortSignal): QuarryError {
  return new QuarryError('JOB_ABORTED', 'embedding cancelled', { cause: signal.reason });
}

/**
 * The embedder's operator: batches chunks ACROSS documents (up to `maxInputs` inputs and
 * `maxTokens` tokens per request, `concurrency` requests in flight), flushes a partial batch once
 * its oldest input waited `flushMs` (or at once when the input ends), and emits exactly one
 * {@link FlowResult} per input flow with `embeddings` on every element. A document with an input
 * over the model's token limit fails alone, and that input is never sent. A failed request fails only the
 * documents in it; when a provider rejects a request mixing several documents as invalid, each
 * document is retried alone so that only the culprit fails.
 */
export function embedOperator<P>(backend: EmbedBackend<P>, options: BatchOptions, ctx: OperatorContext): OperatorFunction<Flow, FlowResult> {
  return (source) =>
    new Observable<FlowResult>((sub) => {
      const controller = new AbortController();
      const open = new Set<DocEntry>();
      let completed = false;

      const emit = (entry: DocEntry, result: FlowResult): void => {
        if (entry.done) return;
        entry.done = true;
        open.delete(entry);
        sub.next(result);
      };

      const fail = (entry: DocEntry, error: unknown): void => {
        if (entry.done) return;
        queue.remove((i) => i.entry === entry);
        emit(entry, { document: entry.flow.document, error, node: ctx.nodeName });
      };

      /** Tokenizes an input (once) and returns its tokens; undefined when its document failed instead. */
      const prepare = (item: Item<P>): number | undefined => {
        if (item.entry.done) return undefined;
        if (item.prepared) return item.prepared.tokens;
        let prepared: PreparedInput<P>;
        try {
          prepared = backend.prepare(item.text);
        } catch (e) {
          fail(item.entry, e);
          return undefined;
        }
        const max = backend.maxInputTokens;
        if (max !== undefined && prepared.tokens > max) {
          fail(item.entry, tooLong(item.entry.flow, item.index, prepared.tokens, max, backend.label));
          return undefined;
        }
        item.prepared = prepared;
        return prepared.tokens;
      };

      const run = async (batch: Item<P>[]): Promise<void> => {
        try {
          const live = batch.filter((i) => !i.entry.done);
          if (live.length === 0) return;
          const tokens = live.reduce((n, i) => n + i.prepared!.tokens, 0);
          const vectors = await backend.embed(
            live.map((i) => i.prepared!.payload),
            tokens,
            controller.signal,
          );
          if (vectors.length !== live.length)
            throw providerError('PROVIDER_ERROR', `${backend.label} returned ${vectors.length} vectors for ${live.length} inputs`);
          const dims = backend.dimensions;
          const wrong = dims === undefined ? undefined : vectors.find((v) => v.length !== dims);
          if (wrong) throw providerError('EMBED_DIMENSIONS_MISMATCH', `${backend.label} returned vectors of ${wrong.length} dimensions; the model has ${dims}`);
          live.forEach((item, k) => {
            const entry = item.entry;
            if (entry.done) return;
            entry.vectors[item.index] = vectors[k];
            if (--entry.remaining === 0) {
              const elements = entry.flow.elements.map((el, j) => ({ ...el, embeddings: entry.vectors[j]! }));
              emit(entry, { document: entry.flow.document, elements });
            }
          });
        } catch (e) {
          const error = controller.signal.aborted && !isQuarryError(e) ? cancelled(controller.signal) : e;
          const entries = [...new Set(batch.map((i) => i.entry))].filter((d) => !d.done);
          const invalid = isQuarryError(error) && error.code === 'PROVIDER_BAD_REQUEST';
          if (invalid && entries.length > 1 && !controller.signal.aborted) {
            // Each document is sent again alone, before new batches, so that only the culprit fails.
            for (const entry of entries) queue.requeue(batch.filter((i) => i.entry === entry));
          } else {
            for (const entry of entries) fail(entry, error);
          }
        }
      };

      const queue = new BatchQueue<Item<P>>(
        {
          maxItems: options.maxInputs,
          maxWeight: options.maxTokens,
          flushMs: options.flushMs,
          concurrency: options.concurrency,
          ...(options.scheduler ? { scheduler: options.scheduler } : {}),
        },
        { run, admit: (item) => prepare(item) },
      );

      // Every document is settled once the queue is idle after the input ended; this guards the
      // contract "one result per flow".
      const finish = (): void => {
        if (completed) return;
        completed = true;
        for (const entry of [...open]) fail(entry, providerError('PROVIDER_ERROR', `${backend.label}: document left unembedded`));
        sub.complete();
      };

      const onJobAbort = (): void => {
        controller.abort(ctx.signal.reason);
        queue.discard();
        const error = cancelled(controller.signal);
        for (const entry of [...open]) fail(entry, error);
      };
      ctx.signal.addEventListener('abort', onJobAbort, { once: true });
      if (ctx.signal.aborted) controller.abort(ctx.signal.reason);

      const accept = (flow: Flow): void => {
        const n = flow.elements.length;
        if (n === 0) {
          sub.next(flow);
          return;
        }
        const entry: DocEntry = { flow, vectors: new Array<number[] | undefined>(n), remaining: n, done: false };
        if (controller.signal.aborted) {
          sub.next({ document: flow.document, error: cancelled(controller.signal), node: ctx.nodeName });
          return;
        }
        const items: Item<P>[] = flow.elements.map((el, index) => ({ entry, index, text: inputText(el) }));
        open.add(entry);
        // Tokenizing on arrival fails an over-long document before any of it is sent, and gives the
        // token counts that decide when a batch is full; otherwise inputs weigh nothing until cut.
        if (!options.prepareOnDispatch) {
          for (const item of items) if (prepare(item) === undefined) return;
        }
        queue.pushAll(items, (item) => item.prepared?.tokens ?? 0);
      };

      const upstream = source.subscribe({
        next: accept,
        error: (e: unknown) => sub.error(e),
        complete: () => {
          queue.end();
          queue.idle().then(finish, (e: unknown) => sub.error(e));
        },
      });

      return () => {
        upstream.unsubscribe();
        ctx.signal.removeEventListener('abort', onJobAbort);
        queue.discard();
        if (!controller.signal.aborted) controller.abort(new Error('embedding stopped'));
      };
    });
}

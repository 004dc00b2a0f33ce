import { isQuarryError, QuarryError, type Element, type Flow, type FlowResult, type OperatorContext } from '@quarry/core';
import { Observable, type OperatorFunction } from 'rxjs';
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
  tokens: number;
  payload: P;
  at: number;
}

/** Text sent for an element: empty texts become one space, which every provider accepts. */
function inputText(el: Element): string {
  return el.text && el.text.length > 0 ? el.text : ' ';
}

function cancelled(signal: AbortSignal): QuarryError {
  return new QuarryError('JOB_ABORTED', 'embedding cancelled', { cause: signal.reason });
}

/**
 * The embedder's operator: batches chunks ACROSS documents (up to `maxInputs` inputs and
 * `maxTokens` tokens per request, `concurrency` requests in flight), flushes a partial batch once
 * its oldest input waited `flushMs` (or at once when the input ends), and emits exactly one
 * {@link FlowResult} per input flow with `embeddings` on every element. A document with an input
 * over the model's token limit fails alone, before any request. A failed request fails only the
 * documents in it; when a provider rejects a request mixing several documents as invalid, each
 * document is retried alone so that only the culprit fails.
 */
export function embedOperator<P>(backend: EmbedBackend<P>, options: BatchOptions, ctx: OperatorContext): OperatorFunction<Flow, FlowResult> {
  return (source) =>
    new Observable<FlowResult>((sub) => {
      const controller = new AbortController();
      const onJobAbort = (): void => {
        controller.abort(ctx.signal.reason);
        pump();
      };
      ctx.signal.addEventListener('abort', onJobAbort, { once: true });
      if (ctx.signal.aborted) controller.abort(ctx.signal.reason);

      let pending: Item<P>[] = [];
      let pendingTokens = 0;
      // Per-document re-sends after a provider rejected a mixed batch; they go before new batches.
      const isolated: Item<P>[][] = [];
      const open = new Set<DocEntry>();
      let inFlight = 0;
      let sourceDone = false;
      let completed = false;
      let timer: NodeJS.Timeout | undefined;

      const emit = (entry: DocEntry, result: FlowResult): void => {
        if (entry.done) return;
        entry.done = true;
        open.delete(entry);
        sub.next(result);
      };

      const fail = (entry: DocEntry, error: unknown): void => {
        if (entry.done) return;
        if (pending.some((i) => i.entry === entry)) {
          pending = pending.filter((i) => i.entry !== entry);
          pendingTokens = pending.reduce((n, i) => n + i.tokens, 0);
        }
        emit(entry, { document: entry.flow.document, error, node: ctx.nodeName });
      };

      const maybeComplete = (): void => {
        if (completed || !sourceDone || inFlight > 0 || pending.length > 0 || isolated.length > 0) return;
        completed = true;
        if (timer) clearTimeout(timer);
        // Every document is settled by now; this guards the contract "one result per flow".
        for (const entry of [...open]) fail(entry, providerError('PROVIDER_ERROR', `${backend.label}: document left unembedded`));
        sub.complete();
      };

      const cut = (): Item<P>[] => {
        const batch: Item<P>[] = [];
        let tokens = 0;
        while (pending.length > 0 && batch.length < options.maxInputs) {
          const next = pending[0]!;
          if (batch.length > 0 && tokens + next.tokens > options.maxTokens) break;
          batch.push(next);
          tokens += next.tokens;
          pending.shift();
        }
        pendingTokens -= tokens;
        return batch;
      };

      const pump = (): void => {
        if (completed) return;
        if (controller.signal.aborted) {
          const error = cancelled(controller.signal);
          isolated.length = 0;
          for (const entry of [...open]) fail(entry, error);
          pending = [];
          pendingTokens = 0;
          maybeComplete();
          return;
        }
        while (inFlight < options.concurrency && isolated.length > 0) void run(isolated.shift()!);
        while (inFlight < options.concurrency && pending.length > 0) {
          const full = pending.length >= options.maxInputs || pendingTokens >= options.maxTokens;
          const waited = performance.now() - pending[0]!.at;
          if (!full && !sourceDone && waited < options.flushMs) {
            if (!timer) {
              timer = setTimeout(() => {
                timer = undefined;
                pump();
              }, Math.ceil(options.flushMs - waited));
            }
            break;
          }
          void run(cut());
        }
        maybeComplete();
      };

      const run = async (batch: Item<P>[]): Promise<void> => {
        inFlight++;
        try {
          const live = batch.filter((i) => !i.entry.done);
          if (live.length > 0) {
            const tokens = live.reduce((n, i) => n + i.tokens, 0);
            const vectors = await backend.embed(
              live.map((i) => i.payload),
              tokens,
              controller.signal,
            );
            if (vectors.length !== live.length) throw providerError('PROVIDER_ERROR', `${backend.label} returned ${vectors.length} vectors for ${live.length} inputs`);
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
          }
        } catch (e) {
          const error = controller.signal.aborted && !isQuarryError(e) ? cancelled(controller.signal) : e;
          const entries = [...new Set(batch.map((i) => i.entry))].filter((d) => !d.done);
          const invalid = isQuarryError(error) && error.code === 'PROVIDER_BAD_REQUEST';
          if (invalid && entries.length > 1 && !controller.signal.aborted) {
            for (const entry of entries) isolated.push(batch.filter((i) => i.entry === entry));
          } else {
            for (const entry of entries) fail(entry, error);
          }
        } finally {
          inFlight--;
          pump();
        }
      };

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
        const items: Item<P>[] = [];
        const now = performance.now();
        try {
          for (let i = 0; i < n; i++) {
            const prepared = backend.prepare(inputText(flow.elements[i]!));
            const max = backend.maxInputTokens;
            if (max !== undefined && prepared.tokens > max) {
              sub.next({
                document: flow.document,
                node: ctx.nodeName,
                error: providerError(
                  'EMBED_INPUT_TOO_LONG',
                  `element ${i} (${flow.elements[i]!.type}, ${flow.elements[i]!.text.length} characters) of "${flow.document.record_id}" has ${prepared.tokens} tokens; ${backend.label} accepts at most ${max}. Lower the chunker's max_characters.`,
                  { element_index: i, element_id: flow.elements[i]!.element_id, tokens: prepared.tokens, max_tokens: max },
                ),
              });
              return;
            }
            items.push({ entry, index: i, tokens: prepared.tokens, payload: prepared.payload, at: now });
          }
        } catch (e) {
          sub.next({ document: flow.document, error: e, node: ctx.nodeName });
          return;
        }
        open.add(entry);
        for (const item of items) {
          pending.push(item);
          pendingTokens += item.tokens;
        }
        pump();
      };

      const upstream = source.subscribe({
        next: accept,
        error: (e: unknown) => sub.error(e),
        complete: () => {
          sourceDone = true;
          if (timer) {
            clearTimeout(timer);
            timer = undefined;
          }
          pump();
        },
      });

      return () => {
        upstream.unsubscribe();
        ctx.signal.removeEventListener('abort', onJobAbort);
        if (timer) clearTimeout(timer);
        if (!controller.signal.aborted) controller.abort(new Error('embedding stopped'));
      };
    });
}

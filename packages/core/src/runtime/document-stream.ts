import type { Element } from '../element/types.js';
import { QuarryError, quarryError } from '../errors.js';
import type { DestinationConnector, Flow } from '../plugin/types.js';
import type { DocumentFailure, Job, JobSummary } from './events.js';

/** One document out of {@link Engine.stream}: its output elements after every node, or why it failed. */
export interface StreamedDocument {
  record_id: string;
  filename: string;
  /** The elements the last node gave (chunks, embedded chunks, ...); empty when `error` is set. */
  elements: Element[];
  /** Set when the document failed: the node (or `source` / `destination`) and the error's code and message. */
  error?: Pick<DocumentFailure, 'node' | 'code' | 'message'>;
}

/**
 * The documents of a job as an async iterator, each as it finishes. The job runs at most `buffer`
 * finished documents ahead of the loop (plus the job's `concurrency` in the nodes); leaving the loop
 * (`break`, `return`, a throw) cancels the job and waits for it to end. A failed document is an
 * item with `error`, so one bad file never ends the loop; the loop throws only when the job itself
 * could not run (a missing source: the error's code) or was cancelled by the caller's signal
 * (`JOB_ABORTED`).
 */
export interface DocumentStream extends AsyncIterableIterator<StreamedDocument> {
  /** The running job (events, cancel). */
  readonly job: Job;
  /** The job's summary once it ended, however it ended (never rejects). */
  readonly done: Promise<JobSummary>;
}

interface Queued {
  doc: StreamedDocument;
  /** Lets the destination write that queued this document return. */
  admit?: () => void;
}

/**
 * Starts a job whose destinations include `sink`, a destination that hands each written document to
 * the returned iterator. `start` must start the job with `sink` as its last destination and no
 * write-behind window, so a document waiting for room in the buffer holds its pull slot: that is
 * the backpressure that keeps the source from running ahead of the loop.
 */
export function streamDocuments(start: (sink: DestinationConnector) => Job, buffer: number): DocumentStream {
  const queue: Queued[] = [];
  let wakeConsumer: (() => void) | undefined;
  let ended = false;
  let endError: QuarryError | undefined;
  let leftByConsumer = false;
  const wake = (): void => {
    const w = wakeConsumer;
    wakeConsumer = undefined;
    w?.();
  };
  const push = (entry: Queued): void => {
    queue.push(entry);
    wake();
  };

  const sink: DestinationConnector = {
    async write(flow: Flow, { signal }) {
      const entry: Queued = { doc: { record_id: flow.document.record_id, filename: flow.document.filename, elements: flow.elements } };
      const room = new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        entry.admit = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      push(entry);
      if (queue.length <= buffer) entry.admit!();
      await room;
    },
  };

  const job = start(sink);
  const subscription = job.events$.subscribe((e) => {
    if (e.type === 'document_failed')
      push({ doc: { record_id: e.record_id, filename: e.filename, elements: [], error: { node: e.node, code: e.code, message: e.message } } });
  });
  const done = job.done.then((summary) => {
    subscription.unsubscribe();
    ended = true;
    if (summary.error)
      endError = QuarryError.from(summary.error.code, `the job could not run: ${summary.error.message}`, { details: { job_id: summary.job_id } });
    else if (summary.status === 'STOPPED' && !leftByConsumer)
      endError = quarryError('JOB_ABORTED', 'the job was cancelled before every document was streamed', { details: { job_id: summary.job_id } });
    wake();
    return summary;
  });

  /** Takes the oldest document, lets the write that queued it return, and admits the next one that now fits. */
  const take = (): StreamedDocument => {
    const entry = queue.shift()!;
    entry.admit?.();
    queue[buffer - 1]?.admit?.();
    return entry.doc;
  };

  const leave = async (): Promise<IteratorResult<StreamedDocument>> => {
    if (!ended) {
      leftByConsumer = true;
      job.cancel();
      await done;
    }
    queue.length = 0;
    return { done: true, value: undefined };
  };

  const stream: DocumentStream = {
    job,
    done,
    async next() {
      for (;;) {
        if (queue.length > 0) return { done: false, value: take() };
        if (ended) {
          const e = endError;
          endError = undefined;
          if (e) throw e;
          return { done: true, value: undefined };
        }
        await new Promise<void>((r) => (wakeConsumer = r));
      }
    },
    return: leave,
    throw: async (e?: unknown) => {
      await leave();
      throw e;
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}

import type { Element } from '../element/types.js';
import { errorMessage, isQuarryError } from '../errors.js';
import type { SourceDocument } from '../plugin/types.js';
import type { DocumentFailure } from './events.js';

/** A document on its way from the source through the nodes to the destinations. */
export interface DocumentItem {
  doc: SourceDocument;
  elements: Element[];
  /** `performance.now()` when it was pulled. */
  started: number;
  failure?: DocumentFailure;
  stopped?: boolean;
  /** Created on first use: aborting it cancels this document's node calls only. */
  controller?: AbortController;
}

/** A document's failure in `node`: the error's code when it is a `QuarryError`, else `NODE_FAILED`. */
export function failureOf(doc: SourceDocument, node: string, e: unknown): DocumentFailure {
  const code = isQuarryError(e) ? e.code : 'NODE_FAILED';
  return { record_id: doc.record_id, filename: doc.filename, node, code, message: errorMessage(e) };
}

/**
 * The documents of a job in flight, each with its own abort signal, aborted with the job's. A
 * controller is made only when a node asks for the signal: a controller per node call (and a timer
 * pair per call) was the largest per-document cost of the engine.
 */
export class DocumentSignals {
  private readonly live = new Set<DocumentItem>();

  constructor(private readonly jobSignal: AbortSignal) {
    jobSignal.addEventListener(
      'abort',
      () => {
        for (const item of this.live) item.controller?.abort(jobSignal.reason);
      },
      { once: true },
    );
  }

  /** A document pulled from the source. */
  add(item: DocumentItem): void {
    this.live.add(item);
  }

  /** A document done with (written, failed or stopped). */
  delete(item: DocumentItem): void {
    this.live.delete(item);
  }

  /** The document's signal, aborted when the job is or when its own node call times out. */
  signalOf(item: DocumentItem): AbortSignal {
    if (!item.controller) {
      item.controller = new AbortController();
      if (this.jobSignal.aborted) item.controller.abort(this.jobSignal.reason);
    }
    return item.controller.signal;
  }
}

import type { SourceConnector, SourceDocument } from '@quarry/core';

/**
 * A source fed from outside: a worker pushes each task's document, and the engine's pull loop
 * takes them as they come. `list` ends after {@link ChannelSource.end} once the buffer is drained.
 */
export class ChannelSource implements SourceConnector {
  private readonly buffer: SourceDocument[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  /** Offers one document to the running job. */
  push(doc: SourceDocument): void {
    this.buffer.push(doc);
    this.notify();
  }

  /** No more documents: `list` returns once the buffer is empty. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** Documents pushed but not yet taken by the job (they never started). */
  drain(): SourceDocument[] {
    return this.buffer.splice(0);
  }

  async *list(signal: AbortSignal): AsyncIterable<SourceDocument> {
    const onAbort = (): void => this.notify();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const next = this.buffer.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.ended || signal.aborted) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

import { Observable } from 'rxjs';

/** A pull-driven stream: emits an item only while fewer than `limit` are in flight. */
export interface PulledStream<T> {
  readonly items$: Observable<T>;
  /** Call once per emitted item when it has left the pipeline; lets the next item in. */
  release(): void;
}

/**
 * Turns an async iterable into an Observable that pulls the next item only when a slot is free.
 * RxJS `mergeMap(fn, n)` caps concurrency but buffers everything beyond `n`; this is the actual
 * backpressure: at most `limit` items exist downstream at any time, however large the source.
 * `accept` may drop an item (returns false) before it takes a slot (incremental skips).
 */
export function pullSource<T>(iterable: AsyncIterable<T>, limit: number, signal: AbortSignal, accept: (item: T) => Promise<boolean>): PulledStream<T> {
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const items$ = new Observable<T>((subscriber) => {
    const it = iterable[Symbol.asyncIterator]();
    let closed = false;
    const onAbort = (): void => wake?.();
    signal.addEventListener('abort', onAbort);
    (async () => {
      try {
        while (!closed && !signal.aborted) {
          while (inFlight >= limit && !signal.aborted) await new Promise<void>((r) => (wake = r));
          if (signal.aborted) break;
          const r = await it.next();
          if (r.done) break;
          if (!(await accept(r.value))) continue;
          inFlight++;
          subscriber.next(r.value);
        }
        subscriber.complete();
      } catch (e) {
        subscriber.error(e);
      }
    })();
    return () => {
      closed = true;
      signal.removeEventListener('abort', onAbort);
      wake?.();
      void it.return?.();
    };
  });
  return {
    items$,
    release() {
      inFlight--;
      const w = wake;
      wake = undefined;
      w?.();
    },
  };
}

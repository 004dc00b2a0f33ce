import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { QuarryError } from '@quarry/core';

/** Bodies up to this many bytes (by `Content-Length`) are read at once, without a turn: one or two socket reads. */
export const SMALL_BODY_BYTES = 256 * 1024;

/**
 * Turns for reading request bodies: at most `slots` bodies stream in at once, the others wait
 * their turn in arrival order. Why: libuv reads a ready socket up to 32 times per event-loop turn,
 * so 200 uploads streaming at once make one turn last hundreds of milliseconds and a /healthcheck
 * waits behind them. A body that waits is not read: nothing consumes it, so Node stops reading its
 * socket and TCP holds the client back. Bodies of at most {@link SMALL_BODY_BYTES} skip the line.
 */
export class BodyReadTurns {
  private reading = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`body reads at once must be a positive integer, got ${slots}`);
  }

  /**
   * Waits for a turn to read a body of `declaredBytes` (NaN when unknown); resolves with the
   * function that ends the turn (idempotent). Rejects with `signal`'s reason if it aborts first.
   */
  async take(declaredBytes: number, signal?: AbortSignal): Promise<() => void> {
    if (declaredBytes <= SMALL_BODY_BYTES) return () => {};
    signal?.throwIfAborted();
    if (this.reading >= this.slots) {
      await new Promise<void>((granted, aborted) => {
        const grant = (): void => {
          signal?.removeEventListener('abort', onAbort);
          granted();
        };
        const onAbort = (): void => {
          this.waiting.splice(this.waiting.indexOf(grant), 1);
          aborted(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(grant);
      });
    } else {
      this.reading++;
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      // The turn passes straight to the next in line, so `reading` only counts down when no one waits.
      const next = this.waiting.shift();
      if (next) next();
      else this.reading--;
    };
  }

  /** Bodies being read now and bodies waiting for a turn. */
  load(): { reading: number; waiting: number } {
    return { reading: this.reading, waiting: this.waiting.length };
  }
}

/**
 * An AbortSignal that fires when the request closes before its body is read: Node destroys the
 * request of a connection that closes, and a request that is read to its end closes harmlessly.
 */
export function connectionClosed(req: IncomingMessage): AbortSignal {
  const controller = new AbortController();
  const abort = (): void => controller.abort(new QuarryError('JOB_ABORTED', 'the client closed the connection before its body was read'));
  if (req.destroyed) abort();
  else req.once('close', abort);
  return controller.signal;
}

/**
 * Reads and throws away the body of a request that was answered without it (a 503 before the
 * upload), in its turn. Draining keeps the connection usable and lets clients that read only
 * after sending their whole body (fetch) see the answer; closing instead would cut them off with
 * EPIPE before they read it. Resolves when the body is gone or the connection closed.
 */
export async function discardBody(req: IncomingMessage, turns: BodyReadTurns): Promise<void> {
  if (req.complete) return;
  let end: (() => void) | undefined;
  const closed = connectionClosed(req);
  // The sink takes its turn at the first chunk; until then `pipeline` holds the request paused.
  const sink = new Writable({
    highWaterMark: 0,
    write(_chunk, _encoding, done) {
      if (end) return done();
      turns.take(Number(req.headers['content-length']), closed).then((e) => {
        end = e;
        done();
      }, done);
    },
  });
  try {
    await pipeline(req, sink);
  } catch {
    // The client went away: nothing is left to drain.
  } finally {
    end?.();
  }
}

/**
 * A clock whose sleeps return at once (on the next macrotask) and are recorded, so that tests
 * can assert which delays the retry policy and rate limiter asked for without waiting for them.
 */
import type { Clock } from '../../src/providers/sleep.js';

/** A recording clock and the delays it was asked to sleep. */
export interface RecordingClock {
  clock: Clock;
  sleeps: number[];
}

/** Creates a {@link RecordingClock}; `now` advances by each recorded sleep. */
export function recordingClock(): RecordingClock {
  const sleeps: number[] = [];
  let offset = 0;
  return {
    sleeps,
    clock: {
      now: () => Date.now() + offset,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          sleeps.push(ms);
          offset += ms;
          if (signal?.aborted) return reject(signal.reason);
          setImmediate(resolve);
        }),
    },
  };
}

import { createHash } from 'node:crypto';
import { sleep, type RateBudget, type RateLimits, type SharedRateBudgets } from '@quarry/core';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { KEY_PREFIX } from './keys.js';

/** One fixed-window counter in Redis: `points` per `seconds`. */
interface Window {
  perMinute: number;
  points: number;
  limiter: RateLimiterRedis;
}

/**
 * A window of whole seconds (what Redis expiry counts in) as short as the budget allows, so that a
 * burst at a window's edge stays small: 3000/min is 50 per second, 10/min is 1 per 6 seconds. The
 * points are rounded down, so no window lets more through than the per-minute rate allows.
 */
function requestWindow(perMinute: number): { seconds: number; points: number } {
  const seconds = Math.max(1, Math.ceil(60 / perMinute));
  return { seconds, points: Math.max(1, Math.floor((perMinute * seconds) / 60)) };
}

/**
 * Budgets of provider keys kept in Redis, so that every worker of a distributed run spends from one
 * budget per key: the provider enforces one per key, however many processes use it. Requests are
 * counted in short fixed windows (see {@link requestWindow}), tokens in one-minute windows (a request
 * is seldom a small share of a second's tokens). The Redis key is a hash of the provider and the
 * key's one-way id; the API key itself never reaches Redis.
 *
 * @example
 * ```ts
 * const services = new Services().set(SHARED_RATE_BUDGETS_SERVICE, new RedisRateBudgets(redis));
 * await startWorker(engine, { redis: url, services });
 * ```
 */
export class RedisRateBudgets implements SharedRateBudgets {
  private readonly budgets = new Map<string, RedisRateBudget>();

  constructor(private readonly redis: Redis) {}

  /** The budget of `id` (`provider:credentialId`), created on first use; later limits only tighten it. */
  budget(id: string, limits: RateLimits): RateBudget {
    let b = this.budgets.get(id);
    if (!b) {
      const hash = createHash('sha256').update(id).digest('hex').slice(0, 32);
      b = new RedisRateBudget(this.redis, `${KEY_PREFIX}:rate:${hash}`);
      this.budgets.set(id, b);
    }
    b.narrow(limits);
    return b;
  }
}

/** One key's budget in Redis (see {@link RedisRateBudgets}). */
class RedisRateBudget implements RateBudget {
  private requests: Window | undefined;
  private tokens: Window | undefined;
  /** This process's callers go one at a time, first come first served, as with the in-process limiter. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  get limits(): RateLimits {
    return {
      ...(this.requests ? { requestsPerMinute: this.requests.perMinute } : {}),
      ...(this.tokens ? { tokensPerMinute: this.tokens.perMinute } : {}),
    };
  }

  /** Lowest limits win: the provider enforces one budget per key whatever each node believes. */
  narrow(limits: RateLimits): void {
    const rpm = limits.requestsPerMinute;
    if (rpm !== undefined && rpm > 0 && (!this.requests || rpm < this.requests.perMinute)) {
      const w = requestWindow(rpm);
      this.requests = { perMinute: rpm, points: w.points, limiter: this.limiter('rpm', w.points, w.seconds) };
    }
    const tpm = limits.tokensPerMinute;
    if (tpm !== undefined && tpm > 0 && (!this.tokens || tpm < this.tokens.perMinute)) {
      this.tokens = { perMinute: tpm, points: tpm, limiter: this.limiter('tpm', tpm, 60) };
    }
  }

  private limiter(kind: string, points: number, duration: number): RateLimiterRedis {
    return new RateLimiterRedis({ storeClient: this.redis, keyPrefix: `${this.key}:${kind}`, points, duration });
  }

  acquire(tokens = 0, signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.take(tokens, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  settle(estimated: number, actual: number | undefined): void {
    const w = this.tokens;
    if (!w || actual === undefined || !Number.isFinite(actual) || actual === estimated) return;
    const change = actual > estimated ? w.limiter.penalty('k', Math.ceil(actual - estimated)) : w.limiter.reward('k', Math.floor(estimated - actual));
    // A correction that does not reach Redis leaves the estimate standing; the next call goes on.
    change.catch(() => undefined);
  }

  pause(ms: number): void {
    // Every worker on the key waits: the pause is a key living as long as the pause, only ever lengthened.
    void this.redis.eval(LENGTHEN_PAUSE, 1, `${this.key}:paused`, Math.max(1, Math.ceil(ms))).catch(() => undefined);
  }

  private async take(tokens: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const paused = await this.redis.pttl(`${this.key}:paused`);
      if (paused > 0) {
        await sleep(paused, signal);
        continue;
      }
      const wait = await this.spend(tokens);
      if (wait === 0) return;
      await sleep(wait, signal);
    }
  }

  /** Spends one request and `tokens` tokens; 0 when both fit, else the milliseconds to wait. */
  private async spend(tokens: number): Promise<number> {
    const { requests, tokens: tokenWindow } = this;
    if (requests) {
      const waited = await consumed(requests.limiter, 1);
      if (waited > 0) return waited;
    }
    if (tokenWindow && tokens > 0) {
      // A request larger than the whole window goes once the window is empty, or it would never go.
      // Refused, the request point already spent stays spent: the budget errs on the safe side.
      return consumed(tokenWindow.limiter, Math.min(tokens, tokenWindow.points));
    }
    return 0;
  }
}

/** Sets the pause key to live `ARGV[1]` ms unless it already lives longer. */
const LENGTHEN_PAUSE = "if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then redis.call('set', KEYS[1], '1', 'PX', ARGV[1]) end return 1";

/**
 * Consumes `points`; 0 when they fit, else the milliseconds until the window resets. A refused
 * consume still counts in its window, which changes nothing: the window is over its points either way
 * and starts from zero when it expires.
 */
async function consumed(limiter: RateLimiterRedis, points: number): Promise<number> {
  try {
    await limiter.consume('k', points);
    return 0;
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    return Math.max(1, e.msBeforeNext);
  }
}

import type { RateBudget, RateLimits } from '@quarry/core';
import { abortReason, systemClock, type Clock } from './sleep.js';

export type { RateBudget, RateLimits };

/** The share of a bucket's size below which a shortfall is rounding error, not a missing unit. */
const ROUNDING = 1e-9;

/** A token bucket holding up to one minute of budget, refilled continuously. */
class Bucket {
  level: number;
  private updated: number;

  constructor(
    readonly perMinute: number,
    now: number,
  ) {
    this.level = perMinute;
    this.updated = now;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updated);
    this.updated = now;
    this.level = Math.min(this.perMinute, this.level + (elapsed * this.perMinute) / 60_000);
  }

  /** Milliseconds until `n` units are available (0 when they are). */
  waitFor(n: number, now: number): number {
    this.refill(now);
    // A request larger than the whole bucket goes once the bucket is full, or it would never go.
    const need = Math.min(n, this.perMinute);
    // The refill is summed in floating point, step by step, so after sleeping exactly the computed
    // wait the level can fall short by a rounding error (0.9999999999999999 of 1): that is enough.
    if (this.level >= need - this.perMinute * ROUNDING) return 0;
    return Math.ceil(((need - this.level) * 60_000) / this.perMinute);
  }

  take(n: number, now: number): void {
    this.refill(now);
    this.level -= n;
  }

  adjust(delta: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.perMinute, this.level - delta);
  }
}

/**
 * The request and token budget of one API key, shared by every caller that uses the key. Callers
 * are served first come, first served; a 429 pauses everyone on the key ({@link RateLimiter.pause}).
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter({ requestsPerMinute: 500, tokensPerMinute: 1_000_000 });
 * await limiter.acquire(estimatedTokens, signal);
 * const res = await call();
 * limiter.settle(estimatedTokens, res.usage.inputTokens);
 * ```
 */
export class RateLimiter implements RateBudget {
  private requests: Bucket | undefined;
  private tokens: Bucket | undefined;
  private blockedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    limits: RateLimits = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.narrow(limits);
  }

  /** The limits in force. */
  get limits(): RateLimits {
    return {
      ...(this.requests ? { requestsPerMinute: this.requests.perMinute } : {}),
      ...(this.tokens ? { tokensPerMinute: this.tokens.perMinute } : {}),
    };
  }

  /**
   * Tightens the limits: when several nodes declare limits for the same key, the lowest of each
   * wins, because the provider enforces one budget per key whatever each node believes.
   */
  narrow(limits: RateLimits): void {
    const now = this.clock.now();
    const rpm = limits.requestsPerMinute;
    if (rpm !== undefined && rpm > 0 && (!this.requests || rpm < this.requests.perMinute)) this.requests = new Bucket(rpm, now);
    const tpm = limits.tokensPerMinute;
    if (tpm !== undefined && tpm > 0 && (!this.tokens || tpm < this.tokens.perMinute)) this.tokens = new Bucket(tpm, now);
  }

  /** Waits until one request carrying `tokens` tokens fits the budget, then spends it. */
  acquire(tokens = 0, signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.take(tokens, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Corrects the token budget once the provider reported the real usage. */
  settle(estimated: number, actual: number | undefined): void {
    if (!this.tokens || actual === undefined || !Number.isFinite(actual)) return;
    this.tokens.adjust(actual - estimated, this.clock.now());
  }

  /** Nobody on this key starts a request for `ms` (after a 429 with Retry-After). */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms);
  }

  private async take(tokens: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const now = this.clock.now();
      const wait = Math.max(this.blockedUntil - now, this.requests?.waitFor(1, now) ?? 0, this.tokens?.waitFor(tokens, now) ?? 0);
      if (wait <= 0) {
        this.requests?.take(1, now);
        this.tokens?.take(tokens, now);
        return;
      }
      await this.clock.sleep(wait, signal);
    }
  }
}

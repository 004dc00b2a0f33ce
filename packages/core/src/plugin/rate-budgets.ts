import { serviceKey, type ServiceKey } from './services.js';

/** A rate budget: requests and tokens per minute (absent = unlimited). */
export interface RateLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/**
 * What a provider call spends from: one API key's request and token budget. `@quarry/nodes` keeps
 * it in its process; a distributed worker keeps it in Redis, so that every worker spends from one.
 */
export interface RateBudget {
  /** The limits in force. */
  readonly limits: RateLimits;
  /** Waits until one request carrying `tokens` tokens fits the budget, then spends it. */
  acquire(tokens?: number, signal?: AbortSignal): Promise<void>;
  /** Corrects the token budget once the provider reported the real usage. */
  settle(estimated: number, actual: number | undefined): void;
  /** Nobody on this key starts a request for `ms` (after a 429 with Retry-After). */
  pause(ms: number): void;
}

/**
 * Budgets kept outside this process, shared with other processes that use the same keys (the
 * workers of a distributed run keep them in Redis). `budget(id, limits)` returns one budget per id,
 * created on first use; later limits only tighten it.
 */
export interface SharedRateBudgets {
  /** `id` is `provider:credentialId` (a one-way hash of the key: never the key itself). */
  budget(id: string, limits: RateLimits): RateBudget;
}

/**
 * The key under which a host registers {@link SharedRateBudgets} in a run's services; provider
 * nodes then take their budgets from there instead of keeping them in their process.
 */
export const SHARED_RATE_BUDGETS_SERVICE: ServiceKey<SharedRateBudgets> = serviceKey<SharedRateBudgets>('quarry.sharedRateBudgets');

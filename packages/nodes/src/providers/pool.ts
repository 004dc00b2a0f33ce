import { SHARED_RATE_BUDGETS_SERVICE, serviceKey, type ServiceKey, type Services, type SharedRateBudgets } from '@quarry/core';
import { createHash } from 'node:crypto';
import { RateLimiter, type RateBudget, type RateLimits } from './rate-limiter.js';
import { systemClock, type Clock } from './sleep.js';

export { SHARED_RATE_BUDGETS_SERVICE, type SharedRateBudgets };

/**
 * The key under which the job's {@link ProviderPool} lives in `NodeCreateContext.services`.
 * Every node of a job that calls a provider gets the pool with {@link providerPool}.
 */
export const PROVIDER_POOL_SERVICE: ServiceKey<ProviderPool> = serviceKey<ProviderPool>('quarry.providerPool');

/** A short, one-way identity of a credential: raw keys never become map keys or log fields. */
export function credentialId(...parts: ReadonlyArray<string | undefined>): string {
  return createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Per-job registry of provider state: one rate budget per provider and key, so every node of a job
 * that uses the same key shares one request/token budget, and one SDK client per provider
 * configuration. Budgets are {@link RateLimiter}s in this process, or the `shared` ones when given.
 *
 * @example
 * ```ts
 * // inside a node factory
 * const pool = providerPool(ctx.services);
 * const limiter = pool.limiter('openai', credentialId(apiKey), { requestsPerMinute: 3000 });
 * ```
 */
export class ProviderPool {
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly clients = new Map<string, unknown>();

  constructor(
    readonly clock: Clock = systemClock,
    private readonly shared?: SharedRateBudgets,
  ) {}

  /** The rate budget of `provider` + key identity, created on first use; later limits only tighten it. */
  limiter(provider: string, keyId: string, limits: RateLimits = {}): RateBudget {
    const id = `${provider}:${keyId}`;
    if (this.shared) return this.shared.budget(id, limits);
    let l = this.limiters.get(id);
    if (!l) {
      l = new RateLimiter(limits, this.clock);
      this.limiters.set(id, l);
    } else {
      l.narrow(limits);
    }
    return l;
  }

  /** A shared client for one provider configuration (`id` must hash every field that shapes it). */
  client<T>(id: string, create: () => T): T {
    if (!this.clients.has(id)) this.clients.set(id, create());
    return this.clients.get(id) as T;
  }
}

/**
 * The job's provider pool from `ctx.services`, created if absent under {@link PROVIDER_POOL_SERVICE}.
 * A host can pre-register its own pool (to share budgets across jobs) in `RunOptions.services`.
 */
export function providerPool(services: Services): ProviderPool {
  const existing = services.get(PROVIDER_POOL_SERVICE);
  if (existing) return existing;
  const pool = new ProviderPool(systemClock, services.get(SHARED_RATE_BUDGETS_SERVICE));
  services.set(PROVIDER_POOL_SERVICE, pool);
  return pool;
}

import { Services } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import {
  credentialId,
  PROVIDER_POOL_SERVICE,
  ProviderPool,
  providerPool,
  SHARED_RATE_BUDGETS_SERVICE,
  type SharedRateBudgets,
} from '../../src/providers/pool.js';
import { RateLimiter, type RateLimits } from '../../src/providers/rate-limiter.js';

describe('providerPool', () => {
  it('creates the pool once per run services, under the documented key', () => {
    const services = new Services();
    const a = providerPool(services);
    expect(services.get(PROVIDER_POOL_SERVICE)).toBe(a);
    expect(providerPool(services)).toBe(a);
    expect(providerPool(new Services())).not.toBe(a);
  });

  it('uses a pool the host registered beforehand', () => {
    const mine = new ProviderPool();
    expect(providerPool(new Services().set(PROVIDER_POOL_SERVICE, mine))).toBe(mine);
  });

  it('shares one limiter per provider and key, and never keys by the raw secret', () => {
    const pool = new ProviderPool();
    const k1 = credentialId('sk-one');
    expect(k1).not.toContain('sk-one');
    expect(k1).toMatch(/^[0-9a-f]{16}$/);
    const a = pool.limiter('openai', k1, { requestsPerMinute: 100 });
    expect(pool.limiter('openai', k1)).toBe(a);
    expect(pool.limiter('openai', credentialId('sk-two'))).not.toBe(a);
    expect(pool.limiter('anthropic', k1)).not.toBe(a);
  });

  it('takes budgets from shared budgets registered in the services (the Redis ones of a distributed worker)', () => {
    const asked: Array<{ id: string; limits: RateLimits }> = [];
    const budget = new RateLimiter();
    const shared: SharedRateBudgets = {
      budget: (id, limits) => {
        asked.push({ id, limits });
        return budget;
      },
    };
    const pool = providerPool(new Services().set(SHARED_RATE_BUDGETS_SERVICE, shared));
    const k = credentialId('sk-one');
    expect(pool.limiter('openai', k, { requestsPerMinute: 60 })).toBe(budget);
    expect(asked).toEqual([{ id: `openai:${k}`, limits: { requestsPerMinute: 60 } }]);
    expect(JSON.stringify(asked)).not.toContain('sk-one');
  });

  it('shares clients by configuration id', () => {
    const pool = new ProviderPool();
    let made = 0;
    const make = () => ({ n: ++made });
    expect(pool.client('x', make)).toBe(pool.client('x', make));
    expect(made).toBe(1);
  });
});

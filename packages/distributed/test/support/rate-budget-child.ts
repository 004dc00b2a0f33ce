/**
 * One process of the shared-budget test: embeds `n` times at once through the OpenAI provider of
 * `@quarry/nodes`, with the key's budget in Redis (`redis`) or in this process (`local`).
 * Usage: node --conditions=source --import tsx rate-budget-child.ts <redis-url> <provider-url> <n> <redis|local> <rpm>
 */
import { createOpenAIProvider, ProviderPool, systemClock } from '@quarry/nodes';
import { connectRedis, redisOptions } from '../../src/redis.js';
import { RedisRateBudgets } from '../../src/redis-rate-budgets.js';

const [redisUrl, providerUrl, n, mode, rpm] = process.argv.slice(2) as [string, string, string, string, string];
const redis = await connectRedis(redisOptions(redisUrl));
const pool = mode === 'redis' ? new ProviderPool(systemClock, new RedisRateBudgets(redis)) : new ProviderPool();
const provider = createOpenAIProvider('openai', {
  apiKey: 'sk-shared-budget-test-0123456789',
  baseURL: `${providerUrl}/v1`,
  pool,
  limits: { requestsPerMinute: Number(rpm) },
});
await Promise.all(Array.from({ length: Number(n) }, (_, i) => provider.embed!({ model: 'text-embedding-3-small', inputs: [`text ${process.pid} ${i}`] })));
redis.disconnect();

import { errorMessage, type Logger } from '@quarry/core';
import type { Redis } from 'ioredis';

/**
 * Sets the coordinator's heartbeat key for `ttlMs` and refreshes it every third of that until the
 * returned function is called; workers run no task of a job whose heartbeat expired.
 */
export async function startHeartbeat(redis: Redis, key: string, ttlMs: number, logger: Logger): Promise<() => void> {
  await redis.set(key, '1', 'PX', ttlMs);
  const timer = setInterval(
    () => void redis.set(key, '1', 'PX', ttlMs).catch((e: unknown) => logger.warn('heartbeat: cannot reach Redis', { error: errorMessage(e) })),
    Math.floor(ttlMs / 3),
  );
  timer.unref();
  return () => clearInterval(timer);
}

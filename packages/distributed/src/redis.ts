import { Redis, type RedisOptions } from 'ioredis';
import { errorMessage, quarryError } from '@quarry/core';

/** Where Redis is: a `redis://` or `rediss://` URL (`redis://user:pass@host:6379/0`), or ioredis options. */
export type RedisTarget = string | RedisOptions;

/**
 * ioredis options for a target. BullMQ needs `maxRetriesPerRequest: null` on the connections that
 * block (workers, queue events), so every connection gets it: a command waits for Redis to come
 * back instead of failing while Redis restarts.
 */
export function redisOptions(target: RedisTarget): RedisOptions {
  if (typeof target !== 'string') return { ...target, maxRetriesPerRequest: null };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw quarryError('INVALID_ARGUMENT', `redis: "${target}" is not a URL (redis://host:6379/0)`, { details: { field: 'redis' } });
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw quarryError('INVALID_ARGUMENT', `redis: "${url.protocol}" is not a Redis URL scheme (redis: or rediss:)`, { details: { field: 'redis' } });
  }
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0)
    throw quarryError('INVALID_ARGUMENT', `redis: database "${dbText}" in "${target}" is not a number`, { details: { field: 'redis' } });
  return {
    host: url.hostname || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** Where Redis is, for messages: host and port, never the password. */
export function describeRedis(options: RedisOptions): string {
  return `${options.host ?? '127.0.0.1'}:${options.port ?? 6379}/${options.db ?? 0}`;
}

/**
 * Opens a connection and checks Redis answers within `timeoutMs`, so that a wrong URL is a clear
 * `REDIS_UNAVAILABLE` at start instead of commands that wait forever.
 */
export async function connectRedis(options: RedisOptions, timeoutMs = 5000): Promise<Redis> {
  const probe = new Redis({ ...options, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    probe.disconnect();
    throw quarryError('REDIS_UNAVAILABLE', `cannot reach Redis at ${describeRedis(options)}: ${errorMessage(e)}`, {
      cause: e,
      details: { redis: describeRedis(options) },
    });
  }
  probe.disconnect();
  const client = new Redis(options);
  client.on('error', () => {});
  return client;
}

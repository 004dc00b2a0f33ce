import { DISTRIBUTED_KEY_ENV } from '@quarry/distributed';

/**
 * The shared secret of a distributed run's coordinator and workers, from `QUARRY_DISTRIBUTED_KEY`
 * (an environment variable rather than a flag: command lines are visible to other users), as the
 * `secret` option of `runDistributed` and `startWorker`.
 */
export function distributedSecret(env: NodeJS.ProcessEnv = process.env): { secret?: string } {
  const secret = env[DISTRIBUTED_KEY_ENV];
  return secret ? { secret } : {};
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The redis-server binary (Debian's `redis-server` package), or undefined when not installed. */
export function redisServerBinary(): string | undefined {
  for (const candidate of [process.env.QUARRY_REDIS_SERVER, '/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    if (candidate && spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  return undefined;
}

/** Why Redis tests are skipped, or undefined when they can run. */
export const redisSkipReason =
  redisServerBinary() === undefined ? 'redis-server is not installed (apt-get install -y redis-server; .ci/run installs it)' : undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A throwaway Redis on loopback: no persistence, its own directory, stopped by `stop()`. */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts redis-server on a free loopback port and waits until it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = redisServerBinary();
  if (!bin) throw new Error(redisSkipReason);
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer): void => {
      log += b.toString();
      if (log.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${log}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

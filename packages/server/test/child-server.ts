import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYS } from './support.js';

/** A quarry server running in a child process, and its origin URL. */
export interface ChildServer {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1` */
  base: string;
  /** What it wrote on stderr. */
  stderr(): string;
  /** Stops it (SIGTERM) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `createServer` in a child process on port 0 with the test key of workspace `acme`, the
 * given server options (JSON) and its logs off. Run from the sources, as the tests are.
 */
export async function startChildServer(dataDir: string, options: Record<string, unknown> = {}): Promise<ChildServer> {
  const script = path.join(dataDir, 'serve-child.mts');
  const src = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  writeFileSync(
    script,
    `import { ApiKeyRing, createServer } from ${JSON.stringify(src)};
const server = await createServer({ dataDir: process.argv[2], apiKeys: new ApiKeyRing([[${JSON.stringify(KEYS.acme)}, 'acme']]), logger: false, ...JSON.parse(process.argv[3]) });
console.log(await server.listen({ port: 0 }));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
`,
  );
  // The tests resolve the workspace packages to their sources; so does the child.
  const child = spawn(process.execPath, ['--conditions', 'source', '--import', 'tsx', script, dataDir, JSON.stringify(options)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return listening(child, 'stdout');
}

/** The built `quarry` CLI (`npm test` builds before the tests run). */
export const CLI_BIN = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));

/**
 * Starts the built `quarry serve` (what users run) on port 0 with the test key of workspace `acme`,
 * its logs at `warn` and the given flags. Its CLI must be built: see {@link CLI_BIN}.
 */
export async function startBuiltServer(dataDir: string, flags: string[] = []): Promise<ChildServer> {
  const keys = path.join(dataDir, 'serve-keys');
  writeFileSync(keys, `${KEYS.acme}=acme\n`);
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--keys-file', keys, '--log-level', 'warn', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return listening(child, 'stderr');
}

/** Waits for a child server to print its URL (on `stream`), and wraps it. */
async function listening(child: ChildProcess, stream: 'stdout' | 'stderr'): Promise<ChildServer> {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    let printed = '';
    child[stream]!.on('data', (d: Buffer) => {
      printed += d.toString();
      const m = /http:\/\/\S+\/api\/v1/.exec(printed);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    base,
    origin: base.replace(/\/api\/v1$/, ''),
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

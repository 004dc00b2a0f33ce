import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYS } from './support.js';

/** A quarry server running in a child process (from the sources), and its origin URL. */
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
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /http:\/\/\S+/.exec(d.toString());
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

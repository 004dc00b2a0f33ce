import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI entry (npm test builds before running tests). */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The built `quarry-worker` entry. */
export const WORKER_BIN = fileURLToPath(new URL('../dist/worker-bin.js', import.meta.url));

/**
 * The Node options on a script's `#!/usr/bin/env -S node ...` line: what the shell passes to Node
 * when the script is run directly (tests run scripts with `process.execPath`, so they pass these).
 */
export function shebangNodeOptions(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!\/usr\/bin\/env(?: -S)? node((?: \S+)*)$/.exec(first);
  if (!match) throw new Error(`${file}: unexpected first line ${JSON.stringify(first)}`);
  return (match[1] ?? '').split(' ').filter(Boolean);
}
/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the built `quarry` with arguments; resolves with exit code and output. */
export function runCli(
  args: string[],
  options: { input?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

// Shared helpers for the root npm scripts. A fresh machine has only Node 20 and npm:
// pnpm is reached through corepack (pinned with its hash in package.json), or npx as a fallback.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_STRICT: '0' };

/** Runs a command in the repo root, inheriting stdio; exits the process when it fails. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0 && !opts.allowFail) process.exit(r.status ?? 1);
  return r.status ?? 1;
}

let pnpmCmd;
/** The command prefix that runs the pinned pnpm. */
export function pnpm() {
  if (pnpmCmd) return pnpmCmd;
  const probe = spawnSync('corepack', ['pnpm', '--version'], { cwd: root, env, encoding: 'utf8' });
  pnpmCmd = probe.status === 0 ? ['corepack', 'pnpm'] : ['npx', '-y', 'pnpm@10.34.9'];
  return pnpmCmd;
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  const [cmd, ...pre] = pnpm();
  run(cmd, [...pre, 'install', '--frozen-lockfile', '--reporter=append-only']);
}

/**
 * Compiles every package (TypeScript project references), bundles @quarry/core's entries, copies
 * the patched pdf.js into @quarry/nodes, packs the part-of-speech tagger's dictionaries there and
 * bundles its partition worker and its entries.
 */
export function build() {
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.json']);
  run(process.execPath, [join(root, 'scripts', 'bundle-package-entries.mjs'), join(root, 'packages', 'core')]);
  run(process.execPath, [join(root, 'packages', 'nodes', 'scripts', 'vendor.mjs')]);
  run(process.execPath, [join(root, 'packages', 'nodes', 'scripts', 'bundle-worker.mjs')]);
  run(process.execPath, [join(root, 'scripts', 'bundle-package-entries.mjs'), join(root, 'packages', 'nodes')]);
}

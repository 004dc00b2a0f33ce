// Packing the workspace packages as the registry would get them, installing the tarballs with plain
// npm into a project outside the workspace, and measuring what that install weighs. Used by
// scripts/footprint.mjs and examples/test/pack-install.test.ts (types: pack-install.d.mts).
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pnpm, root } from './lib.mjs';

/** Bytes in a megabyte as `du -m` counts them. */
export const MB = 1024 * 1024;

/** The install footprint `@quarry/core @quarry/nodes` must stay within, in MB. */
export const FOOTPRINT_LIMIT_MB = 80;

const env = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', npm_config_update_notifier: 'false' };

function exec(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Packs `packages/<name>` for each name with `pnpm pack` into `dest`; returns name -> tarball path. */
export function packPackages(names, dest) {
  mkdirSync(dest, { recursive: true });
  const [cmd, ...pre] = pnpm();
  const tarballs = {};
  for (const name of names) {
    const out = exec(cmd, [...pre, 'pack', '--pack-destination', dest], join(root, 'packages', name));
    const file = out
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.endsWith('.tgz'))
      .at(-1);
    if (!file) throw new Error(`pnpm pack printed no tarball for packages/${name}:\n${out}`);
    tarballs[name] = file;
  }
  return tarballs;
}

/** Makes `dir` a plain npm project (ES modules), outside any workspace. */
export function newNpmProject(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'quarry-pack-install', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
}

/**
 * `npm install` of `specs` (tarball paths, `name@version`) in `dir`, lifecycle scripts allowed as
 * for any user. `--prefer-offline` takes package data from npm's cache when it has it, so a warm
 * machine does not ask the registry again. Returns the seconds it took.
 */
export function npmInstall(dir, specs) {
  const start = performance.now();
  exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], dir);
  return (performance.now() - start) / 1000;
}

/** The packages of an npm project's lockfile that have an install script (preinstall, install, postinstall). */
export function installScripts(dir) {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages ?? {})
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

// Bytes of the files under `path` (symbolic links not followed), and the disk blocks they take.
function sizeOf(path) {
  const st = lstatSync(path);
  const own = { bytes: st.isDirectory() ? 0 : st.size, disk: st.blocks * 512 };
  if (!st.isDirectory()) return own;
  for (const entry of readdirSync(path)) {
    const inner = sizeOf(join(path, entry));
    own.bytes += inner.bytes;
    own.disk += inner.disk;
  }
  return own;
}

/**
 * What a `node_modules` folder weighs: the bytes of its files (the install size npm size tools
 * report, the same on every file system), the disk space they take here (what `du` reports: every
 * small file costs a whole block), and each top-level package's bytes with what it nests, largest
 * first.
 */
export function footprint(nodeModules) {
  const packages = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) packages.push({ name, bytes: sizeOf(join(nodeModules, name)).bytes });
  }
  packages.sort((a, b) => b.bytes - a.bytes);
  const { bytes, disk } = sizeOf(nodeModules);
  return { bytes, diskBytes: disk, packages };
}

/** The exact versions the monorepo pins for `names`, from `packages/<pkg>/package.json` (any dependency kind). */
export function pinnedVersions(pkg, names) {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return names.map((n) => {
    if (!all[n]) throw new Error(`packages/${pkg}/package.json pins no version of ${n}`);
    return `${n}@${all[n]}`;
  });
}

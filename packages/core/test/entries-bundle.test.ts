import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The build bundles the package's entries (scripts/bundle-package-entries.mjs at the repository root) and the built package's
// `exports` point at dist/bundle/: each entry must export what its module does, the entries must
// share their modules, and the bundled code must find what it locates beside its module (the
// process pool's entry module, zod), run by plain Node as a user's process runs it.
const coreRoot = fileURLToPath(new URL('../', import.meta.url));
const bundleDir = path.join(coreRoot, 'dist/bundle');
const built = existsSync(path.join(bundleDir, 'index.js')) && existsSync(path.join(coreRoot, 'dist/index.js'));
const pkg = JSON.parse(readFileSync(path.join(coreRoot, 'package.json'), 'utf8')) as {
  main: string;
  exports: Record<string, { source: string; default: string }>;
  publishConfig: { exports: Record<string, { default: string }> };
};

/** Runs an ES module script with plain Node from the package folder; returns its stdout. */
function node(script: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: coreRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const exportNames = (file: string): string[] =>
  JSON.parse(node(`const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(Object.keys(m).sort()));`)) as string[];

describe.runIf(built)("the bundle of the package's entries", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-core-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is what every entry of the built package points at, published or not', () => {
    for (const [sub, entry] of Object.entries(pkg.exports)) {
      expect([sub, path.dirname(entry.default)]).toEqual([sub, './dist/bundle']);
      expect(pkg.publishConfig.exports[sub]!.default).toBe(entry.default);
    }
    expect(pkg.main).toBe(pkg.exports['.']!.default);
  });

  it('exports the names of each entry module', () => {
    for (const entry of Object.values(pkg.exports)) {
      const module = path.join(coreRoot, entry.source.replace(/^\.\/src\//, 'dist/').replace(/\.ts$/, '.js'));
      const names = exportNames(path.join(coreRoot, entry.default));
      expect(names.length).toBeGreaterThan(0);
      expect(names).toEqual(exportNames(module));
    }
  });

  it('shares one copy of each module among the entries, and loads what the entries load on first use', () => {
    const worker = path.join(dir, 'upper-worker.mjs');
    writeFileSync(worker, 'export default (task) => task.word.toUpperCase();\n');
    const out = node(`
      const core = await import('@quarry/core');
      const errors = await import('@quarry/core/errors');
      const { ProcessPool } = await import('@quarry/core/process-pool');
      const pool = new ProcessPool({ workerUrl: new URL(${JSON.stringify(pathToFileURL(worker).href)}), size: 1 });
      const upper = await pool.run({ word: 'hi' });
      await pool.close();
      // zod loads on first use, resolved from the bundled module's own place.
      const z = core.zod();
      const parsed = z.object({ n: z.number() }).safeParse({ n: 'x' }).success;
      console.log(JSON.stringify({ sameError: core.QuarryError === errors.QuarryError, upper, parsed }));
    `);
    expect(JSON.parse(out)).toEqual({ sameError: true, upper: 'HI', parsed: false });
  }, 60_000);
});

describe.skipIf(built)("the bundle of the package's entries (not built)", () => {
  it('is checked once the build has made it', () => {
    console.warn('packages/core/dist has no entries bundle: run node scripts/build.mjs');
  });
});

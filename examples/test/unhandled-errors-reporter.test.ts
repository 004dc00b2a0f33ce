import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const reporter = join(root, 'scripts/unhandled-errors-reporter.mjs');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-unhandled-'));
  await writeFile(join(dir, 'vitest.config.mjs'), 'export default {};\n');
  await writeFile(join(dir, 'clean.test.mjs'), "it('passes', () => {});\n");
  await writeFile(
    join(dir, 'late.test.mjs'),
    "it('passes, leaving a rejection behind', () => {\n  void Promise.reject(new Error('rejected after the test'));\n});\n",
  );
});
afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

/** Runs vitest on one file of the fixture with the reporter, as `npm test` does; returns what it wrote. */
async function unhandledErrorsOf(file: string): Promise<{ status: number | null; errors: { name: string; message: string; testFile?: string }[] }> {
  const out = join(dir, `${file}.unhandled.json`);
  // The vitest running this test tells its workers who they are through VITEST_* variables.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', file, '--root', dir, '--globals', '--reporter=dot', `--reporter=${reporter}`],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...env, QUARRY_UNHANDLED_ERRORS_FILE: out },
    },
  );
  const { errors } = JSON.parse(await readFile(out, 'utf8')) as { errors: { name: string; message: string; testFile?: string }[] };
  return { status: r.status, errors };
}

describe('scripts/unhandled-errors-reporter.mjs (npm test counts unhandled errors as failures)', () => {
  it('writes the unhandled errors of a run whose tests all passed, with the file that was running', async () => {
    const r = await unhandledErrorsOf('late.test.mjs');
    expect(r.errors).toEqual([expect.objectContaining({ name: 'Error', message: 'rejected after the test', testFile: join(dir, 'late.test.mjs') })]);
    expect(r.status).toBe(1);
  });

  it('writes an empty list for a clean run', async () => {
    const r = await unhandledErrorsOf('clean.test.mjs');
    expect(r).toEqual({ status: 0, errors: [] });
  });
});

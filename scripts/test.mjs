// npm test: install, build, typecheck the tests, run every test, end with "N passed, N failed".
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInstalled, build, run, root } from './lib.mjs';

ensureInstalled();
build();
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.test.json', '--noEmit']);
// Lint and format (Biome, biome.json): any finding fails the run, counted as one failure below.
const lintFailed = run(join(root, 'node_modules/.bin/biome'), ['check', '--error-on-warnings', '.'], { allowFail: true }) !== 0;
const extra = process.argv.slice(2);
// Two phases: every test file in parallel, then the ones that time responses, alone (vitest.config.ts).
const phases = [
  { name: 'main', env: {} },
  { name: 'timing', env: { QUARRY_TEST_PHASE: 'timing' } },
];
let passed = 0;
let failed = lintFailed ? 1 : 0;
let success = !lintFailed;
if (lintFailed)
  console.log(
    'lint: biome found problems (counted as one failure); `node_modules/.bin/biome check .` lists them, `node_modules/.bin/biome format --write .` formats',
  );
const reporter = join(root, 'scripts/unhandled-errors-reporter.mjs');
for (const phase of phases) {
  const out = join(root, `.vitest-results-${phase.name}.json`);
  const unhandledOut = join(root, `.vitest-results-${phase.name}-unhandled.json`);
  rmSync(out, { force: true });
  rmSync(unhandledOut, { force: true });
  run(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--reporter=${reporter}`,
      `--outputFile.json=${out}`,
      ...extra,
    ],
    {
      allowFail: true,
      env: { ...process.env, ...phase.env, QUARRY_UNHANDLED_ERRORS_FILE: unhandledOut },
    },
  );
  if (!existsSync(out) || !existsSync(unhandledOut)) {
    console.log(`${phase.name} phase: vitest wrote no report (counted as one failure)`);
    failed++;
    success = false;
    continue;
  }
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + countFilesFailedWithoutTests(r);
  if (r.success === false) success = false;
  // An unhandled rejection or exception fails no test, yet it is a bug (often of the file that ran
  // before): each one counts as a failure.
  const { errors } = JSON.parse(readFileSync(unhandledOut, 'utf8'));
  if (errors.length > 0) {
    failed += errors.length;
    success = false;
    console.log(`${phase.name} phase: ${errors.length} unhandled error${errors.length === 1 ? '' : 's'} (each counted as a failure):`);
    for (const e of errors) console.log(`  ${e.name}: ${e.message}${e.testFile ? ` (while ${e.testFile}${e.test ? ` > ${e.test}` : ''} ran)` : ''}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && success ? 0 : 1);

// A test file that fails to load (or fails outside its tests) has no failed tests of its own:
// count it once as a failure. (`numFailedTestSuites` counts describe blocks too, so it cannot be used.)
function countFilesFailedWithoutTests(res) {
  return res.testResults.filter((s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed')).length;
}

// npm test: install, build, typecheck the tests, run every test, end with "N passed, N failed".
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInstalled, build, run, root } from './lib.mjs';

ensureInstalled();
build();
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.test.json', '--noEmit']);
const out = join(root, '.vitest-results.json');
rmSync(out, { force: true });
const extra = process.argv.slice(2);
run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra], { allowFail: true });
if (!existsSync(out)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const r = JSON.parse(readFileSync(out, 'utf8'));
const failed = r.numFailedTests + countFilesFailedWithoutTests(r);
console.log(`${r.numPassedTests} passed, ${failed} failed`);
process.exit(failed === 0 && r.success !== false ? 0 : 1);

// A test file that fails to load (or fails outside its tests) has no failed tests of its own:
// count it once as a failure. (`numFailedTestSuites` counts describe blocks too, so it cannot be used.)
function countFilesFailedWithoutTests(res) {
  return res.testResults.filter((s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed')).length;
}

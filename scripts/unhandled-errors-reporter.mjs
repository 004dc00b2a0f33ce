// A vitest reporter that writes the run's unhandled errors (rejections and exceptions outside any
// test) to the JSON file named by QUARRY_UNHANDLED_ERRORS_FILE. vitest's JSON report leaves them out
// (its `success` looks at tests only), so without this file `npm test` could not count them.
import { writeFileSync } from 'node:fs';

/** @typedef {{ name: string, message: string, stack?: string, testFile?: string, test?: string }} UnhandledError */

export default class UnhandledErrorsReporter {
  /**
   * @param {readonly unknown[]} _testModules
   * @param {readonly Record<string, unknown>[]} unhandledErrors vitest's serialized errors
   */
  onTestRunEnd(_testModules, unhandledErrors) {
    const file = process.env.QUARRY_UNHANDLED_ERRORS_FILE;
    if (!file) return;
    /** @type {UnhandledError[]} */
    const errors = unhandledErrors.map((e) => ({
      name: String(e.name ?? 'Error'),
      // vitest's own errors (a worker that exited) say what happened in their cause.
      message: String(e.message ?? e) + (e.cause && typeof e.cause === 'object' && 'message' in e.cause ? ` (${String(e.cause.message)})` : ''),
      ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
      // vitest tags an error with the file and test that were running when it surfaced.
      ...(typeof e.VITEST_TEST_PATH === 'string' ? { testFile: e.VITEST_TEST_PATH } : {}),
      ...(typeof e.VITEST_TEST_NAME === 'string' ? { test: e.VITEST_TEST_NAME } : {}),
    }));
    writeFileSync(file, JSON.stringify({ errors }));
  }
}

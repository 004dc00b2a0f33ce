import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests that time how quickly something answers (`*.timing.test.ts`) run in a phase of their own,
// one file at a time, after the others (`QUARRY_TEST_PHASE=timing`): on two cores the other test
// files running beside them would measure the machine, not the code.
const timing = process.env.QUARRY_TEST_PHASE === 'timing';
const TIMING_FILES = ['packages/*/test/**/*.timing.test.ts'];
// Test files that replace a module (`vi.mock`) need a module graph of their own.
const ISOLATED_FILES = ['packages/*/test/**/*.isolated.test.ts'];
const MAIN_FILES = ['packages/*/test/**/*.test.ts', 'examples/test/**/*.test.ts'];
// @quarry/nodes loads pdf.js and the tagger's dictionaries from its vendor/ folder, which the build
// fills; so does this.
const VENDOR_SETUP = 'packages/nodes/test/support/vendor-setup.ts';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    fileParallelism: !timing,
    // At least two files at once (vitest's default is a core less than the machine has): many tests
    // wait on child processes, Redis or Chromium, so two run in about half the time on two cores.
    // The timing phase runs one file at a time all the same (fileParallelism).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: timing
      ? [{ extends: true, test: { name: 'timing', include: TIMING_FILES, globalSetup: [VENDOR_SETUP] } }]
      : [
          {
            extends: true,
            // These files share each worker's imported modules: importing the packages' sources once
            // per worker instead of once per file halves the phase. So a test undoes what it changes
            // (environment, globals, spies, the exit code); the first three are also undone here.
            test: {
              name: 'shared',
              include: MAIN_FILES,
              exclude: [...configDefaults.exclude, ...ISOLATED_FILES, ...TIMING_FILES],
              isolate: false,
              unstubEnvs: true,
              unstubGlobals: true,
              restoreMocks: true,
              globalSetup: [VENDOR_SETUP],
            },
          },
          {
            extends: true,
            test: { name: 'isolated', include: ISOLATED_FILES, exclude: [...configDefaults.exclude, ...TIMING_FILES] },
          },
        ],
  },
});

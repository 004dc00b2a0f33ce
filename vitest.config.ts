import { configDefaults, defineConfig } from 'vitest/config';

// Tests that time how quickly something answers (`*.timing.test.ts`) run in a phase of their own,
// one file at a time, after the others (`QUARRY_TEST_PHASE=timing`): on two cores the other test
// files running beside them would measure the machine, not the code.
const timing = process.env.QUARRY_TEST_PHASE === 'timing';
const TIMING_FILES = ['packages/*/test/**/*.timing.test.ts'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: timing ? TIMING_FILES : ['packages/*/test/**/*.test.ts', 'examples/test/**/*.test.ts'],
    exclude: timing ? configDefaults.exclude : [...configDefaults.exclude, ...TIMING_FILES],
    fileParallelism: !timing,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // @quarry/nodes loads pdf.js and the tagger's dictionaries from its vendor/ folder, which the build fills; so does this.
    globalSetup: ['packages/nodes/test/support/vendor-setup.ts'],
  },
});

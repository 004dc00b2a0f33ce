import { ProcessPool } from '../../src/runtime/process-pool.js';

// Run by the pool test in a child process: one task, then the pool is left open (or, with the
// argument "close", closed and awaited at top level: the script must still exit 0, not 13).
// "close-lingering" and "crash-lingering" run a task whose process leaves a grandchild holding
// its stderr: closing, and a crash under a task, must still settle before this script exits.
// "prestart" starts a process that no pool takes: it must not hold the script either.
const mode = process.argv[2] ?? 'open';
const pool = new ProcessPool<{ word: string; ms: number }, { word: string; pid: number }>({
  workerUrl: new URL('./probe-worker.ts', import.meta.url),
  size: 2,
});
if (mode === 'prestart') {
  ProcessPool.prestart({ workerUrl: new URL('./probe-worker.ts', import.meta.url), heapLimitMb: 100 });
  process.stdout.write('done UNUSED\n');
} else if (mode === 'crash-lingering') {
  const error = await pool.run({ word: 'linger-crash', ms: 1 }).then(
    () => undefined,
    (e: unknown) => e as { code?: string },
  );
  process.stdout.write(`failed ${error?.code}\n`);
} else {
  const r = await pool.run({ word: mode === 'close-lingering' ? 'linger' : 'seven', ms: 1 });
  if (mode !== 'open') await pool.close();
  process.stdout.write(`done ${r.word}\n`);
}

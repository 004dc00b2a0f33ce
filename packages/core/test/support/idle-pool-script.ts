import { ProcessPool } from '../../src/runtime/process-pool.js';

// Run by the pool test in a child process: one task, then the pool is left open (or, with the
// argument "close", closed and awaited at top level: the script must still exit 0, not 13).
const pool = new ProcessPool<{ ms: number; bytes?: Uint8Array }, { pid: number; length: number }>({ workerUrl: new URL('./busy-worker.ts', import.meta.url), size: 2 });
const r = await pool.run({ ms: 1, bytes: new Uint8Array(7) });
if (process.argv[2] === 'close') await pool.close();
process.stdout.write(`done ${r.length}\n`);

import { ProcessPool } from '../../src/runtime/process-pool.js';

// Run by the pool test in a child process: one task, and the pool is left open on purpose.
const pool = new ProcessPool<{ ms: number; bytes?: Uint8Array }, { pid: number; length: number }>({ workerUrl: new URL('./busy-worker.ts', import.meta.url), size: 2 });
const r = await pool.run({ ms: 1, bytes: new Uint8Array(7) });
process.stdout.write(`done ${r.length}\n`);

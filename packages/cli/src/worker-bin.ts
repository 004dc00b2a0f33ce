#!/usr/bin/env -S node --single-threaded-gc --max-semi-space-size=64
/**
 * `quarry-worker [options]`: `quarry worker [options]` with V8's garbage collector set up for a
 * machine whose cores are all running workers (one worker process per core, the usual way to
 * deploy them).
 *
 * - `--single-threaded-gc`: by default V8 helps each collection along with threads of its own,
 *   which pays off only while a core is idle; with every core busy those threads compete with the
 *   workers themselves.
 * - `--max-semi-space-size=64` (MiB): a worker keeps several documents' parse state alive at once;
 *   a larger young generation lets it die young instead of being copied into the old generation.
 *
 * Measured with `packages/distributed/bench/distributed.bench.ts` (180 PDFs, 2 cores, 10 rounds):
 * one worker 5,172 ms → 4,666 ms, two workers 3,156 ms → 2,665 ms.
 * The flags must be on the command line (V8 reads them before the heap is set up), hence a bin of
 * its own; `node --single-threaded-gc --max-semi-space-size=64 quarry worker ...` is the same.
 */
import { main } from './main.js';

const [node = 'node', script = 'quarry-worker', ...args] = process.argv;
process.exitCode = await main([node, script, 'worker', ...args]);

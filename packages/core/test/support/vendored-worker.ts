import type { WorkerTaskHandler } from '../../src/runtime/process-pool.js';
// @ts-expect-error: plain JavaScript without types, loaded as the pool process's hooks give it.
import { loadOs } from './vendor/dynamic-import.mjs';

/** A pool worker that answers the source text of a function in a vendored module, as the process loaded it. */
const handle: WorkerTaskHandler<null, string> = async () => String(loadOs);
export default handle;

/**
 * A coordinator to kill: runs the dead-coordinator workflow distributed and never returns on its own
 * before its workers are done. Usage: node --conditions=source --import tsx coordinator-child.ts <redis-url> <queue> <input> <output> <wait-ms>
 */
import { createEngine } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { runDistributed } from '../../src/index.js';
import { waitPlugin, waitWorkflow } from './slow-plugin.js';

const [redis, queue, input, output, ms] = process.argv.slice(2) as [string, string, string, string, string];
const engine = createEngine().use(nodesPlugin).use(connectorsPlugin).use(waitPlugin);
const job = runDistributed(engine, engine.build(waitWorkflow(Number(ms))), {
  redis,
  queue,
  source: { type: 'local', config: { path: input } },
  destination: { type: 'local', config: { path: output } },
  heartbeatTtlMs: 1000,
});
job.events$.subscribe((e) => {
  if (e.type === 'document_written') process.stdout.write(`written ${e.record_id}\n`);
});
await job.done;

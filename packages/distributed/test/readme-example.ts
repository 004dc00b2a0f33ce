import { createEngine, type JobSummary } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { runDistributed, startWorker } from '@quarry/distributed';

/**
 * Partitions every file under `input` into `output` on two workers through Redis. In production the
 * workers are `quarry worker --redis URL` processes on other machines that see the same paths.
 */
export async function partitionOnWorkers(redis: string, input: string, output: string): Promise<JobSummary> {
  const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
  const workers = await Promise.all([startWorker(engine, { redis }), startWorker(engine, { redis })]);
  try {
    const plan = engine.build({
      name: 'partition-notes',
      workflow_type: 'custom',
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
    const job = runDistributed(engine, plan, {
      redis,
      source: { type: 'local', config: { path: input } },
      destination: { type: 'local', config: { path: output } },
    });
    job.events$.subscribe((e) => e.type === 'document_failed' && console.warn(`${e.record_id}: ${e.code}`));
    return await job.done;
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

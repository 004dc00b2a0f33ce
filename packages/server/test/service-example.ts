// WorkflowService in-process, without HTTP: create a workflow, run it on a file, read the output.
import { readFile } from 'node:fs/promises';
import { createEngine } from '@quarry/core';
import { MemoryStore, WorkflowService } from '@quarry/core/service';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';

export async function partitionInProcess(dataDir: string, text: string) {
  const service = await WorkflowService.open({
    engine: createEngine().use(nodesPlugin).use(connectorsPlugin),
    store: new MemoryStore(), // or SqliteStore.open(`${dataDir}/quarry.db`) from @quarry/server
    dataDir, // uploads and kept outputs, per job
  });
  try {
    const wf = await service.createWorkflow('acme', {
      name: 'notes',
      workflow_type: 'custom',
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
    const job = await service.runWorkflow('acme', wf.id, { inputFiles: [{ filename: 'notes.txt', content: new TextEncoder().encode(text) }] });
    const done = await service.waitForJob('acme', job.id); // status COMPLETED
    const out = await service.downloadJobOutput('acme', job.id, { file_id: done.input_file_ids[0]! });
    return { status: done.status, elements: JSON.parse(await readFile(out.path, 'utf8')) as Array<{ type: string; text: string }> };
  } finally {
    await service.close();
  }
}

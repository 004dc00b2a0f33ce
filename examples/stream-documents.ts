// Results as a stream: each document's chunks as it finishes, in bounded memory.
import { createEngine } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';

/** Partitions and chunks every document under `dir`, returning chunk texts by record id. */
export async function chunkTexts(dir: string, stopAfter = Infinity): Promise<Map<string, string[]>> {
  const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
  const plan = engine.build({
    name: 'stream',
    workflow_type: 'custom',
    workflow_nodes: [
      { name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'chunk', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ],
  });
  const texts = new Map<string, string[]>();
  for await (const doc of engine.stream(plan, { source: { type: 'local', config: { path: dir } } })) {
    if (doc.error) console.warn(`${doc.record_id} failed in ${doc.error.node}: ${doc.error.code} ${doc.error.message}`);
    else
      texts.set(
        doc.record_id,
        doc.elements.map((e) => e.text),
      );
    if (texts.size >= stopAfter) break; // leaving the loop cancels the job
  }
  return texts;
}

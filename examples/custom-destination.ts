// A destination of your own: each document's elements as one JSON line, replaced on a re-run.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { createEngine, defineDestination, definePlugin, type JobSummary } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { z } from 'zod';

/** Writes `{ record_id, texts }` lines to `config.file`; a record written again replaces its line. */
export const jsonLines = defineDestination({
  type: 'json_lines',
  config: z.object({ file: z.string() }).strict(),
  create: ({ file }) => ({
    async prepare() {
      await appendFile(file, '');
    },
    async write({ document, elements }) {
      const others = (await readFile(file, 'utf8')).split('\n').filter((l) => l && JSON.parse(l).record_id !== document.record_id);
      const line = JSON.stringify({ record_id: document.record_id, texts: elements.map((e) => e.text) });
      await writeFile(file, `${[...others, line].join('\n')}\n`);
    },
  }),
});

/** Partitions the documents under `dir` into `file`, one JSON line per document. */
export async function runToJsonLines(dir: string, file: string): Promise<JobSummary> {
  const engine = createEngine()
    .use(nodesPlugin)
    .use(connectorsPlugin)
    .use(definePlugin({ name: 'json-lines', engine: '^0.1.0', destinations: [jsonLines] }));
  const plan = engine.build({
    name: 'lines',
    workflow_type: 'custom',
    workflow_nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
  });
  // One document at a time: write() rewrites the whole file.
  const job = engine.run(plan, { source: { type: 'local', config: { path: dir } }, destination: { type: 'json_lines', config: { file } }, concurrency: 1 });
  return job.done;
}

// A custom node plugin: a prompter that redacts e-mail addresses, registered next to the
// built-in plugins and run over the example documents.
import { createEngine, defineNode, definePlugin, MemoryStateStore, type JobSummary } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { z } from 'zod';

/** Replaces e-mail addresses in element text with a placeholder. */
export const redactEmails = defineNode({
  type: 'prompter',
  subtype: 'redact_emails',
  settings: z.object({ placeholder: z.string().default('[email]') }).strict(),
  create: (settings) => ({
    process: ({ elements }) => elements.map((e) => ({ ...e, text: e.text.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, settings.placeholder) })),
  }),
});

/** Runs partition -> redact over `input`, writing element JSON to `output`. */
export async function runRedaction(input: string, output: string): Promise<JobSummary> {
  const engine = createEngine()
    .use(nodesPlugin)
    .use(connectorsPlugin)
    .use(definePlugin({ name: 'redaction', engine: '^0.1.0', nodes: [redactEmails] }));
  const plan = engine.build({
    name: 'redacted-docs',
    workflow_type: 'custom',
    workflow_nodes: [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'Redact', type: 'prompter', subtype: 'redact_emails', settings: { placeholder: '<redacted>' } },
    ],
  });
  const job = engine.run(plan, {
    source: { type: 'local', config: { path: input, include: ['*.txt', '*.eml'] } },
    destination: { type: 'local', config: { path: output } },
    state: new MemoryStateStore(),
  });
  return job.done;
}

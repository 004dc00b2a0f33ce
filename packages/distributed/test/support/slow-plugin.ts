import { defineNode, definePlugin } from '@quarry/core';
import { z } from 'zod';

/** A node that waits `ms` per document (and stops at once on abort): documents take time on workers. */
export const waitNode = defineNode<{ ms: number }>({
  type: 'prompter',
  subtype: 'wait',
  settings: z.strictObject({ ms: z.number().int().min(0) }),
  create: (settings) => ({
    process: ({ elements }, ctx) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => resolve(elements), settings.ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(ctx.signal.reason);
        });
      }),
  }),
});

/** The plugin of the dead-coordinator test, loaded by the coordinator child and the workers alike. */
export const waitPlugin = definePlugin({ name: 'distributed-wait', engine: '^0.1.0', nodes: [waitNode] });

/** The workflow both coordinators run: partition text, then wait. */
export function waitWorkflow(ms: number) {
  return {
    name: 'dead-coordinator',
    nodes: [
      { name: 'Partitioner', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'Wait', type: 'prompter' as const, subtype: 'wait', settings: { ms } },
    ],
  };
}

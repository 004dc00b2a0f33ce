import { z } from 'zod';
import {
  definePlugin,
  defineNode,
  Registry,
  type DestinationConnector,
  type Element,
  type Flow,
  type Plan,
  type SourceConnector,
  type SourceDocument,
} from '../src/index.js';
import { compilePlan } from '../src/plan/plan.js';

/** An in-memory source of `n` text documents; records how far ahead it was pulled. */
export function memorySource(texts: string[], versions?: string[]): SourceConnector & { pulled: number } {
  const src = {
    pulled: 0,
    async *list(): AsyncIterable<SourceDocument> {
      for (const [i, text] of texts.entries()) {
        src.pulled++;
        yield {
          record_id: `doc-${i}.txt`,
          filename: `doc-${i}.txt`,
          version: versions?.[i] ?? `v-${text}`,
          data_source: {},
          read: async () => new TextEncoder().encode(text),
        };
      }
    },
    async count() {
      return texts.length;
    },
  };
  return src;
}

/** A destination that keeps the last write per record and the order of writes. */
export function memoryDestination(): DestinationConnector & {
  records: Map<string, Element[]>;
  writes: string[];
  write(flow: Flow, ctx?: { signal: AbortSignal }): Promise<void>;
} {
  const records = new Map<string, Element[]>();
  const writes: string[] = [];
  return {
    records,
    writes,
    async write(flow: Flow) {
      records.set(flow.document.record_id, flow.elements);
      writes.push(flow.document.record_id);
    },
  };
}

/** Test nodes: a partitioner splitting text into lines, and a configurable prompter. */
export const lineSplitter = defineNode({
  type: 'partition',
  subtype: 'test_lines',
  settings: z.object({}),
  create: () => ({
    async process(flow: Flow, ctx) {
      const bytes = await flow.document.read(ctx.signal);
      return new TextDecoder()
        .decode(bytes)
        .split('\n')
        .map(
          (text, i): Element => ({
            element_id: `${flow.document.record_id}#${i}`,
            type: 'NarrativeText',
            text,
            metadata: { filename: flow.document.filename },
          }),
        );
    },
  }),
});

/** Builds a plan from node definitions without SPEC.md validation (runtime tests only). */
export function planOf(nodes: Array<ReturnType<typeof defineNode<any>>>, settings: Array<Record<string, unknown>> = []): Plan {
  const registry = new Registry();
  registry.register(definePlugin({ name: 'test', engine: '*', nodes }));
  const { plan, problems } = compilePlan(registry, {
    name: 'test',
    nodes: nodes.map((n, i) => ({ name: `${n.subtype}`, type: n.type, subtype: n.subtype, settings: settings[i] ?? {} })),
  });
  if (!plan) throw new Error(JSON.stringify(problems));
  return plan;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  createEngine,
  defineDestination,
  defineNode,
  definePlugin,
  defineSource,
  QuarryError,
  sleep,
  type Element,
  type Engine,
  type Logger,
  type SourceDocument,
  type TemplateNode,
  type WorkflowTemplate,
} from '../../src/index.js';

/**
 * A small but real plugin for service tests: a partitioner implementing the SPEC.md
 * `partition/unstructured_api` node for text (one NarrativeText per non-empty line), a prompter
 * that fails documents containing "FAIL", a prompter that holds each document until the gate
 * opens (to observe running jobs), a `local` source and destination over a directory, and a
 * `vault` destination whose config carries secrets and whose write error echoes one.
 */
export interface TestPlugin {
  engine: Engine;
  /** Opens the gate: every held document proceeds. */
  openGate(): void;
  /** Closes the gate for documents that arrive next. */
  closeGate(): void;
  /** What the vault destination received, by record id. */
  vault: Map<string, Element[]>;
}

/** Settings of the text partitioner: the SPEC.md unstructured_api settings, kept as given. */
const partitionSettings = z.object({ strategy: z.enum(['fast', 'hi_res']) }).passthrough();

const templateNode = (id: string, type: TemplateNode['type'], subtype: string, settings: Record<string, unknown> = {}): TemplateNode => ({
  id,
  name: id,
  type,
  subtype,
  settings,
});
const template = (id: string, nodes: TemplateNode[]): WorkflowTemplate => ({
  id,
  name: id,
  description: `${id} (test)`,
  version: '1.0.0',
  last_updated: '2025-11-01T00:00:00.000Z',
  nodes,
});

/** Templates the test plugin supplies: two its nodes can run, two that need nodes it lacks. */
const TEST_TEMPLATES: WorkflowTemplate[] = [
  template('fast_partition', [templateNode('fast-p', 'partition', 'unstructured_api', { strategy: 'fast' })]),
  template('hi_res_partition', [templateNode('hr-p', 'partition', 'unstructured_api', { strategy: 'hi_res' })]),
  template('hi_res_and_enrichment', [
    templateNode('hre-p', 'partition', 'unstructured_api', { strategy: 'hi_res' }),
    templateNode('hre-image', 'prompter', 'anthropic_image_description', { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' }),
    templateNode('hre-table', 'prompter', 'anthropic_table_description', { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' }),
    templateNode('hre-ner', 'prompter', 'anthropic_ner', { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' }),
  ]),
  template('hi_res_and_chunk', [
    templateNode('hrc-p', 'partition', 'unstructured_api', { strategy: 'hi_res' }),
    templateNode('hrc-c', 'chunk', 'chunk_by_title', { max_characters: 1500 }),
  ]),
];

export function testEngine(): TestPlugin {
  let release: (() => void) | undefined;
  let gate: Promise<void> = Promise.resolve();
  const vault = new Map<string, Element[]>();

  const textPartition = defineNode({
    type: 'partition',
    subtype: 'unstructured_api',
    settings: partitionSettings,
    create: () => ({
      async process(flow, ctx) {
        const text = new TextDecoder().decode(await flow.document.read(ctx.signal));
        return text
          .split('\n')
          .filter((l) => l.trim())
          .map(
            (line, i): Element => ({
              element_id: `${flow.document.record_id}#${i}`,
              type: 'NarrativeText',
              text: line,
              metadata: { filename: flow.document.filename },
            }),
          );
      },
    }),
  });
  const failWord = defineNode({
    type: 'prompter',
    subtype: 'test_fail_word',
    settings: z.object({}).strict(),
    create: () => ({
      process(flow, ctx) {
        if (flow.elements.some((e) => e.text.includes('FAIL'))) throw new QuarryError('FILE_UNREADABLE', `${flow.document.filename} asked to fail`);
        if (flow.elements.some((e) => e.text.includes('WARN'))) ctx.logger.warn(`${flow.document.filename} asked for a warning`);
        return flow.elements;
      },
    }),
  });
  const gateNode = defineNode({
    type: 'prompter',
    subtype: 'test_gate',
    settings: z.object({}).strict(),
    create: () => ({
      async process(flow, ctx) {
        await new Promise<void>((resolve, reject) => {
          void gate.then(resolve);
          ctx.signal.addEventListener('abort', () => reject(new QuarryError('JOB_ABORTED', 'stopped at the gate')), { once: true });
        });
        return flow.elements;
      },
    }),
  });
  const localSource = defineSource({
    type: 'local',
    config: z.strictObject({ path: z.string().min(1) }),
    create: (config) => ({
      async *list() {
        for (const name of (await readdir(config.path)).sort()) {
          const file = path.join(config.path, name);
          const content = await readFile(file);
          const doc: SourceDocument = {
            record_id: name,
            filename: name,
            version: content.toString('base64'),
            data_source: {},
            read: async () => new Uint8Array(content),
          };
          yield doc;
        }
      },
    }),
  });
  const localDestination = defineDestination({
    type: 'local',
    config: z.strictObject({ path: z.string().min(1) }),
    create: (config) => ({
      async write(flow) {
        await mkdir(config.path, { recursive: true });
        await writeFile(path.join(config.path, `${flow.document.record_id}.json`), JSON.stringify(flow.elements));
      },
    }),
  });
  const vaultDestination = defineDestination({
    type: 'vault',
    config: z.strictObject({
      url: z.string().url(),
      api_key: z.string().min(8),
      auth: z.strictObject({ token: z.string() }).optional(),
      index_name: z.string().default('docs'),
    }),
    create: (config) => ({
      async write(flow) {
        if (flow.elements.some((e) => e.text.includes('LEAK'))) throw new Error(`vault rejected key ${config.api_key} at ${config.url}`);
        vault.set(flow.document.record_id, flow.elements);
      },
    }),
  });
  const engine = createEngine().use(
    definePlugin({
      name: 'service-test',
      engine: '*',
      nodes: [textPartition, failWord, gateNode],
      sources: [localSource],
      destinations: [localDestination, vaultDestination],
      templates: TEST_TEMPLATES,
    }),
  );
  return {
    engine,
    vault,
    openGate() {
      release?.();
      release = undefined;
    },
    closeGate() {
      gate = new Promise<void>((r) => (release = r));
    },
  };
}

/** A partition node body. */
export const partitionNode = { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } };

/** A custom workflow body with a local source and destination. */
export function localWorkflow(name: string, extraNodes: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, workflow_type: 'custom', workflow_nodes: [partitionNode, ...extraNodes], ...extra };
}

/** A text file to upload. */
export function textFile(filename: string, text: string): { filename: string; content: Uint8Array } {
  return { filename, content: new TextEncoder().encode(text) };
}

/** A fresh temporary directory and its removal. */
export function tempDir(prefix = 'quarry-service-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A logger that keeps every line as JSON text. */
export function captureLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ level, message, fields }));
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Polls `fn` until it returns a truthy value (for jobs that end asynchronously). */
export async function until<T>(fn: () => Promise<T | undefined | false>, what: string, tries = 3000): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

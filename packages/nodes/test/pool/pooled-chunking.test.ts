import diagnostics from 'node:diagnostics_channel';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  elementToJSON,
  Services,
  type DestinationConnector,
  type Element,
  type JobEvent,
  type JobSummary,
  type NodeCreateContext,
  type Plan,
  type SourceDocument,
  type WorkflowNodeRef,
} from '@quarry/core';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkingAfter } from '../../src/chunk/pooled-chunkers.js';
import { warmUpChunking } from '../../src/pool/chunk-task.js';
import { nodesPlugin, PARTITION_POOL_SERVICE, PartitionPool } from '../../src/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtures = path.join(repoRoot, 'packages/nodes/test/fixtures/formats');
const corpusDocs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
// Real documents with titles, tables and pages; the corpus ones only when the shared corpus is there.
const files = [
  path.join(fixtures, 'quarry-report.html'),
  path.join(fixtures, 'unstructured-readme.rst'),
  ...['embedded-images-tables.pdf', 'docx-tables.docx', 'example-10k-1p.html', 'multi-column-2p.pdf'].map((f) => path.join(corpusDocs, f)),
].filter((f) => existsSync(f));
if (files.length < 6) console.warn(`pooled-chunking.test: ${corpusDocs} is absent; chunking only the repository's own samples`);

const engine = createEngine().use(nodesPlugin);
const partition: WorkflowNodeRef = {
  name: 'partition',
  type: 'partition',
  subtype: 'unstructured_api',
  settings: { strategy: 'fast', unique_element_ids: false },
};

function plan(chunker: { subtype: string; settings: Record<string, unknown> }): Plan {
  return engine.build({ name: 'pooled-chunking', nodes: [partition, { name: 'chunk', type: 'chunk', ...chunker }] });
}

function docs(): SourceDocument[] {
  return files.map((f) => {
    const bytes = new Uint8Array(readFileSync(f));
    return { record_id: path.basename(f), filename: path.basename(f), data_source: { record_locator: { path: f } }, read: async () => bytes };
  });
}

/** A document's chunks as JSON, their random ids (the chunks' and the split tables') numbered in order of appearance. */
function numbered(elements: Element[]): string {
  const tables = new Map<unknown, number>();
  return JSON.stringify(
    elements.map((e, i) => {
      const json = elementToJSON(e);
      const table = json.metadata.table_id;
      if (table !== undefined) tables.set(table, tables.get(table) ?? tables.size);
      return { ...json, element_id: i, metadata: { ...json.metadata, ...(table === undefined ? {} : { table_id: tables.get(table) }) } };
    }),
  );
}

/** A job's written chunks ({@link numbered}), its summary and events. */
async function run(p: Plan, pool?: PartitionPool): Promise<{ summary: JobSummary; out: Map<string, string>; events: JobEvent[] }> {
  const out = new Map<string, string>();
  const destination: DestinationConnector = {
    write: async ({ document, elements }) => void out.set(document.record_id, numbered(elements)),
  };
  const job = engine.run(p, {
    source: {
      list: async function* () {
        yield* docs();
      },
    },
    destination,
    concurrency: 3,
    ...(pool ? { services: new Services().set(PARTITION_POOL_SERVICE, pool) } : {}),
  });
  const events: JobEvent[] = [];
  job.events$.subscribe((e) => events.push(e));
  return { summary: await job.done, out, events };
}

/** Counts the documents chunked in this process while `work` runs. */
async function chunkedHere(work: () => Promise<void>): Promise<number> {
  let chunked = 0;
  const onChunk = (message: unknown) => {
    if ((message as { pid: number }).pid === process.pid) chunked++;
  };
  diagnostics.subscribe('quarry:chunk', onChunk);
  try {
    await work();
  } finally {
    diagnostics.unsubscribe('quarry:chunk', onChunk);
  }
  return chunked;
}

describe('chunking in the partition processes', () => {
  const pool = new PartitionPool({ size: 2 });
  afterAll(() => pool.close());

  const chunkers = [
    { subtype: 'chunk_by_title', settings: { max_characters: 600, new_after_n_chars: 400, combine_text_under_n_chars: 200, include_orig_elements: true } },
    { subtype: 'by_page', settings: { max_characters: 300, overlap: 40, overlap_all: true } },
  ];
  it.each(chunkers)('a pooled partition node chunks for the $subtype after it: the same chunks, none made in this process', async (chunker) => {
    const p = plan(chunker);
    let here!: Awaited<ReturnType<typeof run>>;
    let pooled!: Awaited<ReturnType<typeof run>>;
    expect(await chunkedHere(async () => void (here = await run(p)))).toBe(files.length);
    expect(await chunkedHere(async () => void (pooled = await run(p, pool)))).toBe(0);
    expect(pooled.summary.status).toBe('COMPLETED');
    expect(pooled.summary.counts).toEqual(here.summary.counts);
    expect(pooled.summary.nodes.map(({ success, failure }) => ({ success, failure }))).toEqual(
      here.summary.nodes.map(({ success, failure }) => ({ success, failure })),
    );
    expect(pooled.out.size).toBe(files.length);
    for (const [id, json] of here.out) {
      expect(JSON.parse(json).every((e: { type: string }) => ['CompositeElement', 'Table', 'TableChunk'].includes(e.type))).toBe(true);
      expect(pooled.out.get(id), id).toBe(json);
    }
    const finished = (events: JobEvent[]) =>
      new Map(events.flatMap((e) => (e.type === 'node_finished' && e.node === 'chunk' ? [[e.record_id, e.elements] as const] : [])));
    expect(finished(pooled.events)).toEqual(finished(here.events));
  });

  it('has the partition process read a document with a local path itself; a file it cannot read fails coded', async () => {
    const p = plan(chunkers[0]!);
    const local = files[0]!;
    const missing = path.join(path.dirname(local), 'no-such-upload.html');
    const read = () => {
      throw new Error('the partition node read the bytes in this process');
    };
    const documents: SourceDocument[] = [
      { record_id: 'here', filename: path.basename(local), data_source: {}, localPath: local, read },
      { record_id: 'gone', filename: 'gone.html', data_source: {}, localPath: missing, read },
    ];
    const out = new Map<string, Element[]>();
    const job = engine.run(p, {
      source: {
        list: async function* () {
          yield* documents;
        },
      },
      destination: { write: async ({ document, elements }) => void out.set(document.record_id, elements) },
      services: new Services().set(PARTITION_POOL_SERVICE, pool),
    });
    const summary = await job.done;
    expect(out.get('here')!.length).toBeGreaterThan(0);
    expect(summary.failures).toEqual([expect.objectContaining({ record_id: 'gone', node: 'partition', code: 'DOCUMENT_READ_FAILED' })]);
    expect(summary.failures[0]!.message).toMatch(/^cannot read gone\.html: ENOENT/);
  });

  it('leaves the chunking to the chunker when it does not follow the partition node, or calls a model', () => {
    const at = (nodes: readonly WorkflowNodeRef[], i: number): NodeCreateContext =>
      ({ node: { ...nodes[i]! }, nodes, logger: console, signal: new AbortController().signal, services: new Services(), formats: [] }) as NodeCreateContext;
    expect(chunkingAfter(at(plan({ subtype: 'chunk_by_title', settings: { max_characters: 800 } }).nodes, 0))).toMatchObject({
      subtype: 'chunk_by_title',
      options: { max_characters: 800, multipage_sections: false, include_orig_elements: false },
    });
    expect(chunkingAfter(at(plan({ subtype: 'basic', settings: {} }).nodes, 0))?.subtype).toBe('chunk_by_character');
    const chunk = (subtype: string, settings: Record<string, unknown>): WorkflowNodeRef => ({ name: 'chunk', type: 'chunk', subtype, settings });
    const prompter: WorkflowNodeRef = { name: 'ner', type: 'prompter', subtype: 'openai_ner', settings: {} };
    expect(chunkingAfter(at([partition, prompter, chunk('chunk_by_title', {})], 0))).toBeUndefined();
    expect(chunkingAfter(at([partition, chunk('chunk_by_similarity', { similarity_threshold: 0.7 })], 0))).toBeUndefined();
    expect(chunkingAfter(at([partition, chunk('chunk_by_title', { contextual_chunking_strategy: 'v1' })], 0))).toBeUndefined();
  });

  it('warms a partition process up by running each pooled chunker once', async () => {
    expect(await chunkedHere(warmUpChunking)).toBe(3);
  });
});

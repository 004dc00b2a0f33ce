// Search-index destination throughput: JSON lines.
// The same documents (elements with 32-dim vectors and typical metadata) go to the same loopback fake
// Elasticsearch (test/support/fake-elasticsearch.ts, run in its own worker thread so that its work does
// not share the benchmark's thread) through:
//   connector: an engine job (engine.run) whose one node hands each document its elements, with the
//              search-index destination, at `concurrency` 4 (the default) and 64: staging (flatten,
//              uuid5 ids), delete-by-record, bulk, retries, and the destination's write-behind window;
//   helper:    the official client's own client.helpers.bulk over the already-staged search documents
//              (same _id and _source), same flushBytes and concurrency.
// documents/s = source documents written per second; ratio = connector / helper (goal >= 0.9).
// Median of 5 alternating runs, each on a fresh index.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Client } from '@elastic/elasticsearch';
import { createEngine, defineNode, definePlugin, silentLogger, type Element, type SourceDocument } from '@quarry/core';
import { z } from 'zod';
// The built package, as users import it (not the sources through tsx's loader).
import { createSearchIndexDestination, SEARCH_INDEX_WRITE_BEHIND, searchDocument, searchIndexConfig } from '@quarry/connectors';

const DOCS = 2000;
const ELEMENTS = 10;
const DIMS = 32;
const RUNS = 5;
const BATCH_BYTES = 5_000_000;
const THREADS = 4;

async function startFakeInWorker(): Promise<{ url: string; worker: Worker }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const entry = pathToFileURL(path.join(here, '..', 'test', 'support', 'fake-elasticsearch.ts')).href;
  const boot = `const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry); })
      .then((mod) => new mod.FakeElasticsearch({ refreshIntervalMs: 1000 }).start())
      .then((es) => parentPort.postMessage(es.url));`;
  const worker = new Worker(boot, { eval: true, workerData: { tsx, entry } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url, worker };
}

function documents(): Array<{ document: SourceDocument; elements: Element[] }> {
  return Array.from({ length: DOCS }, (_, d) => {
    const recordId = `folder-${d % 20}/document-${d}.pdf`;
    const document: SourceDocument = { record_id: recordId, filename: `document-${d}.pdf`, data_source: {}, read: async () => new Uint8Array() };
    const elements: Element[] = Array.from({ length: ELEMENTS }, (_, i) => ({
      element_id: `${d}-${i}-${'x'.repeat(24)}`,
      type: i === 0 ? 'Title' : 'CompositeElement',
      text: `Chunk ${i} of document ${d}. `.repeat(12),
      embeddings: Array.from({ length: DIMS }, (_, k) => Math.sin(d * 31 + i * 7 + k) || 0.5),
      metadata: {
        filename: `document-${d}.pdf`,
        filetype: 'application/pdf',
        languages: ['eng'],
        page_number: 1 + (i >> 2),
        data_source: { url: `file:///data/${recordId}`, record_locator: { protocol: 'file', remote_file_path: `/data/${recordId}` } },
      },
    }));
    return { document, elements };
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const elementsOf = new Map<string, Element[]>();
const handOver = defineNode({
  type: 'partition',
  subtype: 'hand_over',
  settings: z.strictObject({}),
  create: () => ({ process: ({ document }) => elementsOf.get(document.record_id) ?? [] }),
});
const engine = createEngine().use(definePlugin({ name: 'bench', engine: '^0.1.0', nodes: [handOver] }));
const plan = engine.build({ name: 'search-index-bench', nodes: [{ name: 'hand_over', type: 'partition', subtype: 'hand_over', settings: {} }] });

async function viaConnector(url: string, index: string, data: ReturnType<typeof documents>, concurrency: number): Promise<number> {
  for (const f of data) elementsOf.set(f.document.record_id, f.elements);
  const config = searchIndexConfig.parse({ hosts: [url], index_name: index, batch_size_bytes: BATCH_BYTES, num_threads: THREADS });
  const dest = await createSearchIndexDestination(config, { logger: silentLogger, signal: new AbortController().signal });
  const t0 = performance.now();
  const summary = await engine.run(plan, {
    source: {
      async *list() {
        for (const f of data) yield f.document;
      },
    },
    destination: dest,
    concurrency,
  }).done;
  const ms = performance.now() - t0;
  if (summary.counts.written !== data.length) throw new Error(JSON.stringify(summary.failures.slice(0, 3)));
  return (data.length / ms) * 1000;
}

async function viaHelper(client: Client, url: string, index: string, data: ReturnType<typeof documents>): Promise<number> {
  const dest = await createSearchIndexDestination(searchIndexConfig.parse({ hosts: [url], index_name: index }), {
    logger: silentLogger,
    signal: new AbortController().signal,
  });
  await dest.prepare!({ nodes: [], embeddingDimensions: DIMS });
  await dest.close!();
  const storable = {
    metadata: new Set(Object.keys(((await client.indices.getMapping({ index }))[index]!.mappings.properties!.metadata as { properties: object }).properties)),
    embeddings: true,
  };
  const staged = data.flatMap((f) => f.elements.map((el) => searchDocument(el, f.document.record_id, storable, new Map())));
  const t0 = performance.now();
  const stats = await client.helpers.bulk<{ id: string; source: Record<string, unknown> }>({
    datasource: staged,
    onDocument: (doc) => [{ index: { _index: index, _id: doc.id } }, doc.source],
    flushBytes: BATCH_BYTES,
    concurrency: THREADS,
  });
  const ms = performance.now() - t0;
  if (stats.failed > 0) throw new Error(`helpers.bulk failed ${stats.failed} documents`);
  return (data.length / ms) * 1000;
}

const { url, worker } = await startFakeInWorker();
const client = new Client({ node: url });
const data = documents();
let n = 0;
for (const concurrency of [64, 4]) {
  const connector: number[] = [];
  const helper: number[] = [];
  // One warm-up of each, not counted.
  await viaConnector(url, `warm-${++n}`, data.slice(0, 200), concurrency);
  await viaHelper(client, url, `warm-${++n}`, data.slice(0, 200));
  for (let r = 0; r < RUNS; r++) {
    connector.push(await viaConnector(url, `bench-${++n}`, data, concurrency));
    helper.push(await viaHelper(client, url, `bench-${++n}`, data));
    await client.indices.delete({ index: `bench-${n - 1},bench-${n}` }).catch(() => undefined);
  }
  const c = median(connector);
  const h = median(helper);
  console.log(
    JSON.stringify({
      bench: 'search_index_destination',
      documents: DOCS,
      elements_per_document: ELEMENTS,
      dims: DIMS,
      concurrency,
      write_behind: SEARCH_INDEX_WRITE_BEHIND,
      connector_docs_per_s: Math.round(c),
      helper_docs_per_s: Math.round(h),
      ratio: Number((c / h).toFixed(3)),
      goal: 0.9,
      runs: RUNS,
    }),
  );
}
await client.close();
await worker.terminate();

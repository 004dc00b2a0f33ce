/**
 * Local embedding throughput through the engine against calling transformers.js directly on the
 * same chunks with the same batch size. The chunks come from partition -> chunk_by_title over
 * examples/docs (repeated to make a corpus); the engine run replays them (a replay partitioner and
 * a pass-through chunker) into embed(local), so both sides embed exactly the same texts and only
 * the embedding stage is compared. Prints one JSON line per model size: median chunks/s of several
 * runs after a warm-up, and `ratio` = ours / transformers.js (goal >= 0.95). `cpu_ratio` compares
 * process CPU time per chunk (all threads, ONNX Runtime's included), which other processes on a
 * busy machine disturb less than wall time.
 *
 * The models are random-weight BERT-shaped ONNX models generated offline (test/support/tiny-bert.ts):
 * the 32-wide one of the tests, where tokenization and per-call overhead dominate, and a 128-wide,
 * 4-layer one, where the model's own compute weighs more, as with a real model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  defineNode,
  definePlugin,
  ENGINE_VERSION,
  type DestinationConnector,
  type Element,
  type SourceConnector,
  type SourceDocument,
} from '@quarry/core';
import { z } from 'zod';
import { localEmbedNode } from '../src/embed/local.node.js';
import { nodesPlugin } from '../src/plugin.js';
import { folderSource } from '../test/support/folder-source.js';
import { writeTinyBert } from '../test/support/tiny-bert.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const docsDir = path.join(repoRoot, 'examples', 'docs');
const RUNS = 5;
const REPEAT = 40;
const BATCH = 32;
/**
 * Documents in flight. The engine admits only this many documents at once, so it must exceed
 * batch_size / chunks-per-document (about 2 here) for whole batches to form across documents.
 */
const CONCURRENCY = 64;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function prepareChunks(): Promise<Map<string, Element[]>> {
  const engine = createEngine().use(nodesPlugin);
  const plan = engine.build({
    name: 'prepare',
    nodes: [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 500 } },
    ],
  });
  const chunks = new Map<string, Element[]>();
  const destination: DestinationConnector = { write: async (flow) => void chunks.set(flow.document.record_id, flow.elements) };
  const summary = await engine.run(plan, { source: folderSource(docsDir), destination }).done;
  if (summary.status !== 'COMPLETED') throw new Error(`preparing chunks failed: ${JSON.stringify(summary.failures)}`);
  return chunks;
}

function replaySource(ids: string[]): SourceConnector {
  return {
    async *list() {
      for (const id of ids) {
        const doc: SourceDocument = { record_id: id, filename: id, data_source: {}, read: async () => new Uint8Array() };
        yield doc;
      }
    },
  };
}

async function main(): Promise<void> {
  const prepared = await prepareChunks();
  const ids: string[] = [];
  const byId = new Map<string, Element[]>();
  for (let r = 0; r < REPEAT; r++) {
    for (const [id, els] of prepared) {
      const key = `${r}/${id}`;
      ids.push(key);
      byId.set(key, els);
    }
  }
  const texts = ids.flatMap((id) => byId.get(id)!.map((e) => e.text));

  const benchPlugin = definePlugin({
    name: 'embed-bench',
    engine: `^${ENGINE_VERSION}`,
    nodes: [
      defineNode({
        type: 'partition',
        subtype: 'bench_replay',
        settings: z.object({}),
        create: () => ({ process: (flow) => byId.get(flow.document.record_id)! }),
      }),
      defineNode({ type: 'chunk', subtype: 'bench_passthrough', settings: z.object({}), create: () => ({ process: (flow) => flow.elements }) }),
      localEmbedNode,
    ],
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-embed-bench-'));
  try {
    for (const shape of [
      { name: 'tiny-bert-32', hidden: 32, layers: 2 },
      { name: 'bert-128x4', hidden: 128, layers: 4 },
    ]) {
      const modelDir = path.join(dir, shape.name);
      writeTinyBert(modelDir, { hidden: shape.hidden, layers: shape.layers });

      const engine = createEngine().use(benchPlugin);
      const plan = engine.build({
        name: 'embed-bench',
        nodes: [
          { name: 'Replay', type: 'partition', subtype: 'bench_replay', settings: {} },
          { name: 'Chunks', type: 'chunk', subtype: 'bench_passthrough', settings: {} },
          { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: modelDir, batch_size: BATCH } },
        ],
      });
      let embedded = 0;
      const ours = async (): Promise<[number, number]> => {
        let started = 0;
        let cpu0 = process.cpuUsage();
        embedded = 0;
        const destination: DestinationConnector = {
          write: async (flow) => void (embedded += flow.elements.filter((e) => e.embeddings?.length === shape.hidden).length),
        };
        const job = engine.run(plan, { source: replaySource(ids), destination, concurrency: CONCURRENCY });
        // Timed from job_started (the model is loaded by then) to the end, like the peer's loop.
        job.events$.subscribe((e) => {
          if (e.type === 'job_started') {
            started = performance.now();
            cpu0 = process.cpuUsage();
          }
        });
        const summary = await job.done;
        if (summary.status !== 'COMPLETED' || embedded !== texts.length) throw new Error(`engine run: ${summary.status}, ${embedded}/${texts.length} embedded`);
        const cpu = process.cpuUsage(cpu0);
        return [(performance.now() - started) / 1000, (cpu.user + cpu.system) / 1e6];
      };

      const { pipeline, env } = await import('@huggingface/transformers');
      env.allowRemoteModels = false;
      env.localModelPath = `${dir}${path.sep}`;
      // Each engine job loads the model afresh (a new ONNX session, whose first calls are slower),
      // so each peer run does too; loading is outside the timed part on both sides.
      const peer = async (): Promise<[number, number]> => {
        const extractor = await pipeline('feature-extraction', shape.name, { dtype: 'fp32' });
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < texts.length; i += BATCH) {
          const out = await extractor(texts.slice(i, i + BATCH), { pooling: 'mean', normalize: true });
          out.tolist();
        }
        const cpu = process.cpuUsage(cpu0);
        const wall = (performance.now() - t0) / 1000;
        await extractor.dispose();
        return [wall, (cpu.user + cpu.system) / 1e6];
      };

      await ours();
      await peer();
      const oursRuns: Array<[number, number]> = [];
      const peerRuns: Array<[number, number]> = [];
      // Alternate the contenders so that load from other processes hits both alike.
      for (let i = 0; i < RUNS; i++) {
        oursRuns.push(await ours());
        peerRuns.push(await peer());
      }
      const oursRate = texts.length / median(oursRuns.map((r) => r[0]));
      const peerRate = texts.length / median(peerRuns.map((r) => r[0]));
      const cpuRatio = median(peerRuns.map((r) => r[1])) / median(oursRuns.map((r) => r[1]));
      console.log(
        JSON.stringify({
          bench: 'embed',
          case: `local ${shape.name} (hidden ${shape.hidden}, ${shape.layers} layers) batch_size=${BATCH} concurrency=${CONCURRENCY}`,
          chunks: texts.length,
          documents: ids.length,
          runs: RUNS,
          ours_chunks_s: Number(oursRate.toFixed(1)),
          peer: '@huggingface/transformers feature-extraction pipeline, same chunks, batches of 32, mean pooling, normalized',
          peer_chunks_s: Number(peerRate.toFixed(1)),
          ratio: Number((oursRate / peerRate).toFixed(2)),
          cpu_ratio: Number(cpuRatio.toFixed(2)),
        }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

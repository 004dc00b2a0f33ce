import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isQuarryError } from '@quarry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEmbedSettings } from '../../src/embed/local.node.js';
import { loadLocalModel, type LocalModel } from '../../src/embed/local-model.js';
import { writeTinyBert } from '../support/tiny-bert.js';
import { caught } from '../support/caught.js';

const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'Invoice total amount: 42 dollars.',
  'hello',
  'A longer sentence about documents, pages and tables in a report.',
];

let dir: string;
let modelDir: string;
let model: LocalModel;

function settings(over: Record<string, unknown> = {}) {
  return localEmbedSettings().parse({ model_path: modelDir, ...over });
}

async function embed(m: LocalModel, texts: string[]): Promise<number[][]> {
  return m.backend.embed(
    texts.map((t) => m.backend.prepare(t).payload),
    0,
    new AbortController().signal,
  );
}

/** Reference output: transformers.js's own feature-extraction pipeline on the same files. */
async function pipelineVectors(texts: string[], pooling: 'mean' | 'cls'): Promise<number[][]> {
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.localModelPath = `${dir}${path.sep}`;
  const extractor = await pipeline('feature-extraction', 'tiny-bert', { dtype: 'fp32' });
  const out = await extractor(texts, { pooling, normalize: true });
  const v = out.tolist() as number[][];
  await extractor.dispose();
  return v;
}

function expectClose(a: number[][], b: number[][]): void {
  expect(a.length).toBe(b.length);
  a.forEach((row, i) => row.forEach((x, j) => expect(Math.abs(x - b[i]![j]!)).toBeLessThan(1e-5)));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-local-model-'));
  modelDir = path.join(dir, 'tiny-bert');
  writeTinyBert(modelDir, { hidden: 32, maxPositions: 512 });
  model = await loadLocalModel(settings());
});

afterAll(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loadLocalModel (transformers.js, offline)', () => {
  it('reads dimensions and the token limit from the model files', () => {
    expect(model.info).toEqual({ model_name: 'tiny-bert', dimensions: 32, max_tokens: 512 });
    expect(model.backend.dimensions).toBe(32);
    expect(model.backend.maxInputTokens).toBe(512);
  });

  it('loads the weights once for every lease in the process and frees them after the last one', async () => {
    const a = await loadLocalModel(settings({ pooling: 'cls' }), { keepWarmMs: 0 });
    const b = await loadLocalModel(settings({ model_name: 'same-weights' }), { keepWarmMs: 0 });
    expect(b.instance).toBe(a.instance);
    expect(b.instance).toBe(model.instance);
    expect(b.info.model_name).toBe('same-weights');
    await a.close();
    await a.close();
    // The other leases still embed after one of them closed.
    expectClose(await embed(b, TEXTS), await embed(model, TEXTS));
    await b.close();

    // A directory no other lease holds is disposed when its last lease closes (keepWarmMs 0).
    const otherDir = path.join(dir, 'tiny-bert-lease');
    writeTinyBert(otherDir, { hidden: 32, maxPositions: 512 });
    const first = await loadLocalModel(localEmbedSettings().parse({ model_path: otherDir }), { keepWarmMs: 0 });
    await first.close();
    const second = await loadLocalModel(localEmbedSettings().parse({ model_path: otherDir }), { keepWarmMs: 60_000 });
    expect(second.instance).not.toBe(first.instance);
    await second.close();
    // Kept warm: the next lease within the window gets the same weights.
    const third = await loadLocalModel(localEmbedSettings().parse({ model_path: otherDir }), { keepWarmMs: 0 });
    expect(third.instance).toBe(second.instance);
    await third.close();
  });

  it('counts tokens with the model tokenizer, special tokens included', () => {
    // [CLS] hello [SEP]
    expect(model.backend.prepare('hello').tokens).toBe(3);
    expect(model.backend.prepare('hello world').tokens).toBe(4);
  });

  it('gives the same vectors as the transformers.js pipeline (mean pooling, normalized)', async () => {
    expectClose(await embed(model, TEXTS), await pipelineVectors(TEXTS, 'mean'));
    for (const v of await embed(model, TEXTS)) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('gives the same vectors as the pipeline with cls pooling', async () => {
    const cls = await loadLocalModel(settings({ pooling: 'cls' }));
    try {
      expectClose(await embed(cls, TEXTS), await pipelineVectors(TEXTS, 'cls'));
    } finally {
      await cls.close();
    }
  });

  it('padding in a batch does not change a text vector', async () => {
    const together = await embed(model, TEXTS);
    const alone = await Promise.all(TEXTS.map(async (t) => (await embed(model, [t]))[0]!));
    expectClose(together, alone);
  });

  it('never touches the network', async () => {
    const real = globalThis.fetch;
    const remote: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.startsWith('file:')) remote.push(url);
      return real(input, init);
    }) as typeof fetch;
    try {
      const m = await loadLocalModel(settings({ model_name: 'offline-check' }));
      await embed(m, ['x']);
      await m.close();
    } finally {
      globalThis.fetch = real;
    }
    expect(remote).toEqual([]);
  });

  it('takes the smallest limit, including sentence_bert_config.json max_seq_length', async () => {
    const other = path.join(dir, 'tiny-bert-128');
    writeTinyBert(other, { hidden: 16 });
    writeFileSync(path.join(other, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 128, do_lower_case: false }));
    const m = await loadLocalModel(localEmbedSettings().parse({ model_path: other, normalize: false }));
    try {
      expect(m.info).toEqual({ model_name: 'tiny-bert-128', dimensions: 16, max_tokens: 128 });
      const [v] = await embed(m, ['hello']);
      expect(v).toHaveLength(16);
    } finally {
      await m.close();
    }
  });

  it('loads the weight file of the chosen dtype', async () => {
    const q = path.join(dir, 'tiny-bert-q8');
    writeTinyBert(q);
    const e = await caught(loadLocalModel(localEmbedSettings().parse({ model_path: q, dtype: 'q8' })));
    expect(isQuarryError(e) && e.code).toBe('EMBED_MODEL_UNAVAILABLE');
    expect((e as Error).message).toContain('onnx/model_quantized.onnx is missing (dtype q8)');
    copyFileSync(path.join(q, 'onnx', 'model.onnx'), path.join(q, 'onnx', 'model_quantized.onnx'));
    const m = await loadLocalModel(localEmbedSettings().parse({ model_path: q, dtype: 'q8' }));
    expectClose(await embed(m, TEXTS), await embed(model, TEXTS));
    await m.close();
  });

  it('reports a missing or incomplete model directory with EMBED_MODEL_UNAVAILABLE', async () => {
    const missing = await caught(loadLocalModel(localEmbedSettings().parse({ model_path: path.join(dir, 'nope') })));
    expect(isQuarryError(missing) && missing.code).toBe('EMBED_MODEL_UNAVAILABLE');
    expect((missing as Error).message).toContain('no such directory');
    const broken = path.join(dir, 'broken');
    writeTinyBert(broken);
    rmSync(path.join(broken, 'tokenizer.json'));
    const e = await caught(loadLocalModel(localEmbedSettings().parse({ model_path: broken })));
    expect(isQuarryError(e) && (e as Error).message).toContain('tokenizer.json is missing');
  });
});

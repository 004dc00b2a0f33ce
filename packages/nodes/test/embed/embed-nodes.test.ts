import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, isQuarryError, type DestinationConnector, type Element, type Flow, type JobSummary } from '@quarry/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { localEmbedSettings } from '../../src/embed/local.node.js';
import { EMBEDDING_MODELS } from '../../src/embed/embedding-models.js';
import { loadLocalModel } from '../../src/embed/local-model.js';
import { createRemoteBackend } from '../../src/embed/remote-backend.js';
import { nodesPlugin } from '../../src/plugin.js';
import { ProviderPool } from '../../src/providers/pool.js';
import { silentLogger } from '@quarry/core';
import { folderSource } from '../support/folder-source.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { fakeVector, openAIError, openAIWire } from '../support/provider-wire.js';
import { writeTinyBert } from '../support/tiny-bert.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const docsDir = path.join(repoRoot, 'examples', 'docs');
const KEY = 'sk-engine-test-0123456789abcdefghij';

function memoryDestination(): DestinationConnector & { flows: Map<string, Element[]> } {
  const flows = new Map<string, Element[]>();
  return {
    flows,
    write: async (flow: Flow) => {
      flows.set(flow.document.record_id, flow.elements);
    },
  };
}

const partition = { name: 'Partitioner', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast' } };
const chunk = (settings: Record<string, unknown> = {}) => ({ name: 'Chunker', type: 'chunk' as const, subtype: 'chunk_by_title', settings });

let dir: string;
let modelDir: string;
let server: LoopbackServer | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-embed-nodes-'));
  modelDir = path.join(dir, 'tiny-bert');
  writeTinyBert(modelDir, { hidden: 32, maxPositions: 512 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe.skipIf(!existsSync(docsDir))('embed(local) through the engine over examples/docs', () => {
  it('partition -> chunk_by_title -> embed(local) writes a vector of the model dimension on every chunk', async () => {
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'local-embed',
      nodes: [
        partition,
        chunk({ max_characters: 500 }),
        { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: modelDir, batch_size: 8 } },
      ],
    });
    const destination = memoryDestination();
    const summary: JobSummary = await engine.run(plan, { source: folderSource(docsDir), destination, concurrency: 3 }).done;
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts.failed).toBe(0);
    expect(destination.flows.size).toBe(summary.counts.total);
    expect(summary.counts.total).toBeGreaterThanOrEqual(6);
    const chunks = [...destination.flows.values()].flat();
    expect(chunks.length).toBeGreaterThan(destination.flows.size);
    for (const c of chunks) {
      expect(c.embeddings).toHaveLength(32);
      expect(c.embeddings!.every((x) => Number.isFinite(x))).toBe(true);
    }
    // Each chunk carries the vector of its own text, whatever batch it travelled in.
    const model = await loadLocalModel(localEmbedSettings().parse({ model_path: modelDir }));
    try {
      const sample = chunks.filter((_, i) => i % 3 === 0);
      const direct = await model.backend.embed(
        sample.map((c) => model.backend.prepare(c.text).payload),
        0,
        new AbortController().signal,
      );
      sample.forEach((c, i) => c.embeddings!.forEach((x, j) => expect(Math.abs(x - direct[i]![j]!)).toBeLessThan(1e-5)));
    } finally {
      await model.close();
    }
  });

  it('rule 5 for the local model: a max_characters above max tokens x 3.5 fails the job naming both numbers', async () => {
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'too-big',
      nodes: [partition, chunk({ max_characters: 2000 }), { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: modelDir } }],
    });
    const summary = await engine.run(plan, { source: folderSource(docsDir), destination: memoryDestination() }).done;
    expect(summary.status).toBe('FAILED');
    expect(summary.error?.code).toBe('WORKFLOW_INVALID');
    expect(summary.error?.message).toContain('max_characters 2000 exceeds 1792');
  });

  it('a missing model directory fails the job with EMBED_MODEL_UNAVAILABLE', async () => {
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'missing',
      nodes: [partition, chunk(), { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: path.join(dir, 'absent') } }],
    });
    const summary = await engine.run(plan, { source: folderSource(docsDir) }).done;
    expect(summary.error?.code).toBe('EMBED_MODEL_UNAVAILABLE');
  });
});

describe('workflow validation with the model registry', () => {
  const engine = createEngine().use(nodesPlugin);
  const body = (chunkSettings: Record<string, unknown>, embed: { subtype: string; model_name: string }) => ({
    name: 'w',
    workflow_type: 'custom',
    workflow_nodes: [partition, chunk(chunkSettings), { name: 'Embedder', type: 'embed', subtype: embed.subtype, settings: { model_name: embed.model_name } }],
  });

  function problems(fn: () => unknown): Array<{ code: string; message: string }> {
    try {
      fn();
    } catch (e) {
      if (isQuarryError(e)) return (e.details.problems ?? []) as Array<{ code: string; message: string }>;
      throw e;
    }
    return [];
  }

  it('rule 5: rejects a max_characters above the model maximum with both numbers', () => {
    const p = problems(() => engine.build(body({ max_characters: 2000 }, { subtype: 'bedrock', model_name: 'cohere.embed-english-v3' })));
    expect(p).toHaveLength(1);
    expect(p[0]!.code).toBe('order.max_characters_exceeds_model');
    expect(p[0]!.message).toContain('2000');
    expect(p[0]!.message).toContain('1792');
  });

  it('accepts every registered model at its own maximum and exposes its dimensions to destinations', () => {
    for (const m of EMBEDDING_MODELS.filter((x) => x.provider !== 'openai')) {
      const plan = engine.build(body({ max_characters: m.max_characters }, { subtype: m.provider, model_name: m.model_name }));
      expect(plan.embeddingDimensions).toBe(m.dimensions);
    }
  });

  it('rejects an unknown model with the list of known ones', () => {
    const p = problems(() => engine.build(body({ max_characters: 500 }, { subtype: 'voyageai', model_name: 'voyage-99' })));
    expect(p[0]!.code).toBe('embed.unknown_model');
    expect(p[0]!.message).toContain('voyage-3-lite');
    expect(p[0]!.message).toContain('voyage-law-2');
  });

  it('registry facts: d4 table plus IBM model cards, max_characters = tokens x 3.5', () => {
    const get = (provider: string, name: string) => EMBEDDING_MODELS.find((m) => m.provider === provider && m.model_name === name);
    expect(get('azure_openai', 'text-embedding-3-large')).toEqual({
      provider: 'azure_openai',
      model_name: 'text-embedding-3-large',
      dimensions: 3072,
      max_tokens: 8192,
      max_characters: 28672,
    });
    expect(get('bedrock', 'amazon.titan-embed-image-v1')).toMatchObject({ dimensions: 1024, max_characters: 896 });
    expect(get('voyageai', 'voyage-code-2')).toMatchObject({ dimensions: 1536, max_tokens: 16000, max_characters: 56000 });
    expect(get('ibm', 'sentence-transformers/all-minilm-l6-v2')).toMatchObject({ dimensions: 384, max_tokens: 256, max_characters: 896 });
    expect(get('ibm', 'intfloat/multilingual-e5-large')).toMatchObject({ dimensions: 1024, max_tokens: 512, max_characters: 1792 });
    expect(new Set(EMBEDDING_MODELS.map((m) => m.provider))).toEqual(new Set(['azure_openai', 'bedrock', 'togetherai', 'voyageai', 'ibm', 'openai']));
    expect(EMBEDDING_MODELS).toHaveLength(25);
  });
});

describe.skipIf(!existsSync(docsDir))('remote embedders through the engine (loopback OpenAI wire format)', () => {
  it('a provider answering 429 twice and then 200 finishes with no chunk lost', async () => {
    server = await startLoopbackServer(openAIWire(() => 1536));
    server.inject(openAIError(429, 'Rate limit reached for requests', { 'retry-after-ms': '5' }), 2);
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'openai-embed',
      nodes: [
        partition,
        chunk({ max_characters: 400 }),
        {
          name: 'Embedder',
          type: 'embed',
          subtype: 'openai',
          settings: { model_name: 'text-embedding-3-small', api_key: KEY, base_url: `${server.url}/v1`, batch_size: 16 },
        },
      ],
    });
    const destination = memoryDestination();
    const summary = await engine.run(plan, { source: folderSource(docsDir), destination, concurrency: 4 }).done;
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts.failed).toBe(0);
    const chunks = [...destination.flows.values()].flat();
    for (const c of chunks) expect(c.embeddings).toEqual(fakeVector(c.text, 1536));
    const answered = server.requests.slice(2).flatMap((r) => (r.json as { input: string[] }).input);
    expect(answered.length).toBe(chunks.length);
    expect(answered.sort()).toEqual(chunks.map((c) => c.text).sort());
    // The two rejected requests were sent again: nothing was dropped with them.
    const rejected = server.requests.slice(0, 2).flatMap((r) => (r.json as { input: string[] }).input);
    for (const t of rejected) expect(answered).toContain(t);
  });

  it('a provider that keeps failing fails only the documents of that request, with the provider code', async () => {
    server = await startLoopbackServer(openAIWire(() => 1536));
    server.inject(openAIError(500, 'boom'), 3);
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'openai-embed',
      nodes: [
        partition,
        chunk({ max_characters: 400 }),
        {
          name: 'Embedder',
          type: 'embed',
          subtype: 'openai',
          settings: { model_name: 'text-embedding-3-small', api_key: KEY, base_url: `${server.url}/v1`, max_retries: 2, batch_size: 1, concurrency: 1 },
        },
      ],
    });
    const summary = await engine.run(plan, { source: folderSource(docsDir), destination: memoryDestination(), concurrency: 1 }).done;
    expect(summary.counts.failed).toBe(1);
    expect(summary.failures[0]).toMatchObject({ node: 'Embedder', code: 'PROVIDER_UNAVAILABLE' });
    expect(summary.failures[0]!.message).not.toContain(KEY);
    expect(summary.counts.written).toBe(summary.counts.total - 1);
  });

  it('an SPEC subtype (azure_openai) takes its endpoint and key from the environment', async () => {
    server = await startLoopbackServer(openAIWire(() => 1536));
    vi.stubEnv('AZURE_OPENAI_ENDPOINT', server.url);
    vi.stubEnv('AZURE_OPENAI_API_KEY', KEY);
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({
      name: 'azure',
      workflow_type: 'custom',
      workflow_nodes: [
        partition,
        chunk({ max_characters: 500 }),
        { name: 'Embedder', type: 'embed', subtype: 'azure_openai', settings: { model_name: 'text-embedding-3-small' } },
      ],
    });
    const destination = memoryDestination();
    const summary = await engine.run(plan, { source: folderSource(docsDir), destination }).done;
    expect(summary.status).toBe('COMPLETED');
    for (const c of [...destination.flows.values()].flat()) expect(c.embeddings).toHaveLength(1536);
    expect(server.requests[0]!.path).toBe('/openai/deployments/text-embedding-3-small/embeddings');
    expect(server.requests[0]!.headers['api-key']).toBe(KEY);
  });
});

describe('remote backend token counting', () => {
  it('counts OpenAI-model tokens exactly with tiktoken and enforces the model limit', async () => {
    const info = EMBEDDING_MODELS.find((m) => m.provider === 'openai' && m.model_name === 'text-embedding-3-small')!;
    const remote = await createRemoteBackend(
      'openai',
      { model_name: info.model_name, api_key: KEY, base_url: 'http://127.0.0.1:9', flush_ms: 0, concurrency: 1, timeout_ms: 1000, max_retries: 0 },
      info,
      { pool: new ProviderPool(), logger: silentLogger },
    );
    try {
      // cl100k_base: "hello world" is two tokens
      expect(remote.backend.prepare('hello world').tokens).toBe(2);
      expect(remote.backend.maxInputTokens).toBe(8192);
    } finally {
      remote.close();
    }
  });

  it('leaves the limit to the provider for models with their own tokenizer', async () => {
    const info = EMBEDDING_MODELS.find((m) => m.provider === 'voyageai' && m.model_name === 'voyage-3')!;
    const remote = await createRemoteBackend(
      'voyageai',
      { model_name: info.model_name, api_key: KEY, flush_ms: 0, concurrency: 1, timeout_ms: 1000, max_retries: 0 },
      info,
      { pool: new ProviderPool(), logger: silentLogger },
    );
    expect(remote.backend.maxInputTokens).toBeUndefined();
    remote.close();
  });
});

describe('nodesPlugin', () => {
  it('registers every embedder subtype and every known model', () => {
    const engine = createEngine().use(nodesPlugin);
    expect(engine.registry.nodeSubtypes('embed')).toEqual(
      (nodesPlugin.nodes ?? [])
        .filter((n) => n.type === 'embed')
        .map((n) => n.subtype)
        .sort(),
    );
    expect(engine.registry.embeddingModels()).toHaveLength(EMBEDDING_MODELS.length);
  });
});

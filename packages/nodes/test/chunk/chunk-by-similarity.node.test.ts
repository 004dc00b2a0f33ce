import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowNodeRef } from '@quarry/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../src/chunk/chunk-by-similarity.js';
import { chunkBySimilarityNode } from '../../src/chunk/chunk-by-similarity.node.js';
import { localEmbedSettings } from '../../src/embed/local.node.js';
import { loadLocalModel } from '../../src/embed/local-model.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { openAIWire } from '../support/provider-wire.js';
import { writeTinyBert } from '../support/tiny-bert.js';
import { createNode } from '../prompter/chat-wire.js';
import { el, texts } from './helpers.js';

let dir: string;
let modelDir: string;
let shortModelDir: string;
let server: LoopbackServer | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-similarity-'));
  modelDir = path.join(dir, 'tiny-bert');
  writeTinyBert(modelDir, { hidden: 32, maxPositions: 512 });
  shortModelDir = path.join(dir, 'tiny-bert-16');
  writeTinyBert(shortModelDir, { hidden: 32, maxPositions: 16 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const A = 'the weather is sunny today';
const B = 'invoice total amount price customer';

async function tinyCosine(a: string, b: string): Promise<number> {
  const model = await loadLocalModel(localEmbedSettings().parse({ model_path: modelDir }));
  try {
    const [va, vb] = await model.backend.embed([model.backend.prepare(a).payload, model.backend.prepare(b).payload], 0, new AbortController().signal);
    return cosineSimilarity(va!, vb!);
  } finally {
    await model.close();
  }
}

describe('chunk_by_similarity node', () => {
  it("embeds with the workflow's local embed node: identical texts join, dissimilar ones separate", async () => {
    const cos = await tinyCosine(A, B);
    expect(cos).toBeLessThan(0.99); // precondition of the threshold below
    const embed: WorkflowNodeRef = { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: modelDir } };
    const { run, instance } = await createNode(chunkBySimilarityNode, { similarity_threshold: 0.99, max_characters: 500 }, [embed]);
    try {
      const out = await run([el('NarrativeText', A), el('NarrativeText', A), el('NarrativeText', B), el('NarrativeText', B)]);
      expect(texts(out)).toEqual([`${A}\n\n${A}`, `${B}\n\n${B}`]);
      expect(out.every((c) => c.type === 'CompositeElement')).toBe(true);
    } finally {
      await instance.close?.();
    }
  });

  it('a threshold below the pair similarity joins them, never past max_characters', async () => {
    const cos = await tinyCosine(A, B);
    const threshold = Math.max(0.01, Math.min(0.99, Math.floor(cos * 100) / 100));
    expect(cos).toBeGreaterThanOrEqual(threshold); // precondition: the tiny model's vectors are not orthogonal
    const { run, instance } = await createNode(chunkBySimilarityNode, {
      similarity_threshold: threshold,
      max_characters: 70,
      embedding: { subtype: 'local', model_path: modelDir },
    });
    try {
      const out = await run([el('NarrativeText', A), el('NarrativeText', B), el('NarrativeText', A)]);
      expect(texts(out)).toEqual([`${A}\n\n${B}`, A]);
    } finally {
      await instance.close?.();
    }
  });

  it('settings.embedding wins over the embed node, and long elements are cut to the model limit rather than failing', async () => {
    const missing: WorkflowNodeRef = { name: 'Embedder', type: 'embed', subtype: 'local', settings: { model_path: path.join(dir, 'absent') } };
    const long = `${A} ${'word '.repeat(100)}`.trim();
    const { run, instance } = await createNode(
      chunkBySimilarityNode,
      { similarity_threshold: 0.99, max_characters: 2000, embedding: { subtype: 'local', model_path: shortModelDir } },
      [missing],
    );
    try {
      const out = await run([el('NarrativeText', long), el('NarrativeText', long)]);
      expect(texts(out)).toEqual([`${long}\n\n${long}`]);
    } finally {
      await instance.close?.();
    }
  });

  it('embeds with a remote embedder (OpenAI wire) through the provider layer', async () => {
    server = await startLoopbackServer(openAIWire(() => 1536));
    const embed: WorkflowNodeRef = {
      name: 'Embedder',
      type: 'embed',
      subtype: 'openai',
      settings: { model_name: 'text-embedding-3-small', api_key: 'sk-test-0123456789abcdef', base_url: server.url },
    };
    const { run } = await createNode(chunkBySimilarityNode, { similarity_threshold: 0.5 }, [embed]);
    const out = await run([el('Title', 'Cats'), el('Title', 'Cats'), el('NarrativeText', 'Dogs bark loudly.')]);
    // fakeVector gives equal texts equal vectors and different texts near-orthogonal ones.
    expect(texts(out)).toEqual(['Cats\n\nCats', 'Dogs bark loudly.']);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.json as { input: string[] }).input).toEqual(['Cats', 'Cats', 'Dogs bark loudly.']);
  });

  it('without an embed node or settings.embedding, creation fails with SETTINGS_INVALID', async () => {
    await expect(createNode(chunkBySimilarityNode, { similarity_threshold: 0.5 })).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
    await expect(createNode(chunkBySimilarityNode, { embedding: { subtype: 'nope' } })).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
  });

  it("rejects settings core's schema rejects, and an embedding without a subtype", () => {
    const schema = chunkBySimilarityNode.settings as { safeParse(v: unknown): { success: boolean } };
    expect(schema.safeParse({ similarity_threshold: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ multipage_sections: true }).success).toBe(false);
    expect(schema.safeParse({ embedding: { model_path: 'x' } }).success).toBe(false);
    expect(schema.safeParse({ similarity_threshold: 0.5, embedding: { subtype: 'local', model_path: 'x' } }).success).toBe(true);
  });
});

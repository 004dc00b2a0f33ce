import { Services } from '@quarry/core';
import type { ContextualChunkingConfig } from '../../src/chunk/contextual.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkByCharacterNode } from '../../src/chunk/chunk-by-character.node.js';
import { chunkByTitleNode } from '../../src/chunk/chunk-by-title.node.js';
import { CONTEXTUAL_CHUNKING_SERVICE, contextualConfig, contextualizeChunks } from '../../src/chunk/contextual.js';
import { prompterLlm } from '../../src/prompter/prompter-llm.js';
import { silentLogger } from '@quarry/core';
import type { LoopbackServer } from '../support/loopback-server.js';
import { anthropicError } from '../support/provider-wire.js';
import { chats, createNode, startChatServer } from '../prompter/chat-wire.js';
import { el, texts } from './helpers.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** Answers with a context naming the chunk's first word, and checks the whole document was sent. */
const contextAnswer = (doc: string) => (seen: { text: string }) => {
  const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(seen.text)?.[1] ?? '';
  const hasDoc = seen.text.includes(`<document>\n${doc}\n</document>`);
  return `Prefix: From the Acme annual report${hasDoc ? '' : ' (no document)'}, about ${chunk.split(/\s/)[0]}.;`;
};

describe('contextualizeChunks', () => {
  it('rewrites each chunk as "Prefix: <context>; Original: <text>", one call per distinct text', async () => {
    const doc = [el('Title', 'Revenue'), el('NarrativeText', 'Revenue grew.'), el('Title', 'Costs'), el('NarrativeText', 'Costs fell.')];
    const docText = texts(doc).join('\n\n');
    server = await startChatServer('anthropic', contextAnswer(docText));
    const llm = prompterLlm('anthropic', 'claude-sonnet-4-20250514', { services: new Services(), logger: silentLogger });
    const chunks = [
      el('CompositeElement', 'Revenue\n\nRevenue grew.'),
      el('CompositeElement', 'Costs\n\nCosts fell.'),
      el('CompositeElement', 'Revenue\n\nRevenue grew.'),
      el('CompositeElement', ''),
    ];
    const out = await contextualizeChunks(chunks, doc, { llm });
    expect(texts(out)).toEqual([
      'Prefix: From the Acme annual report, about Revenue.; Original: Revenue\n\nRevenue grew.',
      'Prefix: From the Acme annual report, about Costs.; Original: Costs\n\nCosts fell.',
      'Prefix: From the Acme annual report, about Revenue.; Original: Revenue\n\nRevenue grew.',
      '',
    ]);
    expect(out[0]!.metadata.enrichment_origins).toEqual({ text: [{ type: 'contextual_chunking', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }] });
    expect(out[3]).toEqual(chunks[3]);
    // The repeated chunk text is answered from the per-document cache.
    expect(chats('anthropic', server)).toHaveLength(2);
  });

  it('sends a window of a document longer than maxDocumentChars, around the chunk', async () => {
    const doc = Array.from({ length: 50 }, (_, i) => el('NarrativeText', `Paragraph ${i} ${'x'.repeat(80)}`));
    server = await startChatServer('anthropic', (seen) => {
      const window = /<document>\n([\s\S]*?)\n<\/document>/.exec(seen.text)![1]!;
      const numbers = [...window.matchAll(/Paragraph (\d+)/g)].map((m) => Number(m[1]));
      return `${window.length} chars, paragraphs ${numbers[0]}-${numbers[numbers.length - 1]}`;
    });
    const llm = prompterLlm('anthropic', 'claude-sonnet-4-20250514', { services: new Services(), logger: silentLogger });
    const chunks = [doc[0]!, doc[25]!, doc[49]!].map((d) => el('CompositeElement', d.text));
    const out = await contextualizeChunks(chunks, doc, { llm, maxDocumentChars: 1000 });
    // 1000 characters of the document, plus "[…]\n" where the window starts after the document does
    // and "\n[…]" where it ends before it.
    expect(out[0]!.text).toMatch(/^Prefix: 1004 chars, paragraphs 0-\d+; Original: Paragraph 0 /);
    const [, from, to] = /^Prefix: 1008 chars, paragraphs (\d+)-(\d+); Original: Paragraph 25 /.exec(out[1]!.text)!;
    expect(Number(from)).toBeLessThan(25);
    expect(Number(to)).toBeGreaterThan(25);
    expect(out[2]!.text).toMatch(/^Prefix: 1004 chars, paragraphs \d+-49; Original: Paragraph 49 /);
  });
});

describe('contextual_chunking_strategy "v1" on the chunker nodes', () => {
  it('chunk_by_title: every chunk gets its context from the default model (anthropic claude-sonnet-4-20250514)', async () => {
    const doc = [el('Title', 'Revenue'), el('NarrativeText', 'Revenue grew by ten percent.'), el('Title', 'Costs'), el('NarrativeText', 'Costs fell sharply.')];
    server = await startChatServer('anthropic', contextAnswer(texts(doc).join('\n\n')));
    const { run } = await createNode(chunkByTitleNode, { contextual_chunking_strategy: 'v1', max_characters: 60 });
    const out = await run(doc);
    expect(texts(out)).toEqual([
      'Prefix: From the Acme annual report, about Revenue.; Original: Revenue\n\nRevenue grew by ten percent.',
      'Prefix: From the Acme annual report, about Costs.; Original: Costs\n\nCosts fell sharply.',
    ]);
    expect(chats('anthropic', server).map((s) => s.model)).toEqual(['claude-sonnet-4-20250514', 'claude-sonnet-4-20250514']);
  });

  it('uses the model the host sets in services, and retries a 429 without losing a chunk', async () => {
    server = await startChatServer('openai', () => 'An excerpt');
    const services = new Services().set(CONTEXTUAL_CHUNKING_SERVICE, { provider: 'openai', model: 'gpt-4o-mini', concurrency: 2 });
    const { run } = await createNode(chunkByCharacterNode, { contextual_chunking_strategy: 'v1', max_characters: 20 }, [], services);
    server.inject({ status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down', type: 'rate_limit_error' } } });
    const out = await run([el('NarrativeText', 'First paragraph.'), el('NarrativeText', 'Second paragraph.'), el('NarrativeText', 'Third one.')]);
    expect(texts(out)).toEqual([
      'Prefix: An excerpt; Original: First paragraph.',
      'Prefix: An excerpt; Original: Second paragraph.',
      'Prefix: An excerpt; Original: Third one.',
    ]);
    expect(chats('openai', server).every((s) => s.model === 'gpt-4o-mini')).toBe(true);
    expect(server.requests).toHaveLength(4);
  });

  it('a provider failure fails the document with its coded error', async () => {
    server = await startChatServer('anthropic', () => 'x');
    server.inject(anthropicError(400, 'invalid_request_error', 'bad model'));
    const { run } = await createNode(chunkByCharacterNode, { contextual_chunking_strategy: 'v1' });
    await expect(run([el('NarrativeText', 'Text.')])).rejects.toMatchObject({ code: 'PROVIDER_BAD_REQUEST' });
  });

  it('without the strategy, no provider is called and the chunk texts are plain', async () => {
    server = await startChatServer('anthropic', () => 'x');
    const { run } = await createNode(chunkByCharacterNode, {});
    expect(texts(await run([el('NarrativeText', 'Text.')]))).toEqual(['Text.']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('contextualConfig', () => {
  it('defaults, and rejects a configuration it cannot use', () => {
    expect(contextualConfig(new Services())).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', concurrency: 8 });
    const bad = (v: unknown) => () => contextualConfig(new Services().set(CONTEXTUAL_CHUNKING_SERVICE, v as ContextualChunkingConfig));
    expect(bad({ provider: 'openai' })).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
    expect(bad({ provider: 'nope', model: 'm' })).toThrow(/provider must be one of/);
    expect(bad({ concurrency: 0 })).toThrow(/concurrency/);
  });
});

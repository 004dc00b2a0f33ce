import { Services } from '@quarry/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, sleep, type Element, type JobSummary } from '@quarry/core';
import { PROMPTER_SUBTYPES } from '../../src/prompter/prompter-tasks.js';
import { nodesPlugin } from '../../src/plugin.js';
import { folderSource } from '../support/folder-source.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageDescriptionNodes } from '../../src/prompter/image-description.node.js';
import { nerNodes } from '../../src/prompter/ner.node.js';
import { ocrNodes } from '../../src/prompter/ocr.node.js';
import { tableDescriptionNodes } from '../../src/prompter/table-description.node.js';
import { ProviderPool, PROVIDER_POOL_SERVICE } from '../../src/providers/pool.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { anthropicError, openAIError } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const pic = { image_base64: PNG_1X1, image_mime_type: 'image/png' };
const claude = { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' };

const PROMPTER_NODES = (nodesPlugin.nodes ?? []).filter((n) => n.type === 'prompter');

describe('the prompter nodes of nodesPlugin', () => {
  it('cover exactly the built-in prompter subtypes, once each', () => {
    const subtypes = PROMPTER_NODES.map((n) => n.subtype);
    expect(new Set(subtypes).size).toBe(subtypes.length);
    expect([...subtypes].sort()).toEqual([...PROMPTER_SUBTYPES]);
    expect(PROMPTER_NODES.every((n) => n.type === 'prompter')).toBe(true);
  });
});

describe('enrichment node behaviour', () => {
  it('after a Fast partitioner, image and table tasks make no call and change nothing', async () => {
    server = await startChatServer('anthropic', () => 'should not be asked');
    const fast = { name: 'P', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast' } };
    for (const def of [imageDescriptionNodes[0]!, tableDescriptionNodes[0]!]) {
      const { run } = await createNode(def, claude, [fast]);
      const input = [el('Image', 'x', pic), el('Table', 'a b', pic)];
      expect(await run(input)).toEqual(input);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('retries 429 (Retry-After) twice, then finishes with every element enriched', async () => {
    server = await startChatServer('anthropic', (seen) => `described: ${seen.text.split('\n').pop()}`);
    server.inject(anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': '2' }), 2);
    const { clock, sleeps } = recordingClock();
    const services = new Services().set(PROVIDER_POOL_SERVICE, new ProviderPool(clock));
    const { run } = await createNode(imageDescriptionNodes[0]!, claude, [hiRes()], services);
    const input = Array.from({ length: 5 }, (_, i) => el('Image', `image ${i}`, pic));
    const out = await run(input);
    expect(out).toHaveLength(5);
    out.forEach((e, i) => {
      expect(e.text).toBe(`described: image ${i}`);
      expect(e.metadata.enrichment_origins?.text).toEqual([{ type: 'image_description', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }]);
    });
    expect(server.requests).toHaveLength(7);
    // Both 429s asked for 2 s, and the retry waited exactly that.
    expect(sleeps.filter((ms) => ms === 2000).length).toBeGreaterThanOrEqual(2);
  });

  it("a provider failure fails the document with the provider layer's coded error", async () => {
    server = await startChatServer('openai', () => '{}');
    server.inject(openAIError(401, 'Incorrect API key provided'));
    const { run } = await createNode(nerNodes.find((n) => n.subtype === 'openai_ner')!, { provider_type: 'openai', model: 'gpt-4o' });
    await expect(run([el('NarrativeText', 'Some text.')])).rejects.toMatchObject({ code: 'PROVIDER_AUTH' });
  });

  it('keeps at most 8 calls in flight per document', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startChatServer('openai', async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(15);
      inFlight--;
      return '{"items": [], "relationships": []}';
    });
    const { run } = await createNode(nerNodes.find((n) => n.subtype === 'openai_ner')!, { provider_type: 'provider_c', model: 'gpt-4o' });
    const out = await run(Array.from({ length: 30 }, (_, i) => el('NarrativeText', `text ${i}`)));
    expect(out.every((e) => e.metadata.entities !== undefined)).toBe(true);
    expect(chats('openai', server)).toHaveLength(30);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });

  it('a field written by two enrichments lists both origins, in order', async () => {
    server = await startChatServer('anthropic', (seen) => (seen.system.includes('OCR') ? 'ocr text' : 'a description'));
    const ocr = ocrNodes.find((n) => n.subtype === 'anthropic_ocr')!;
    const nodes = [hiRes(['Image'])];
    const afterOcr = await (await createNode(ocr, claude, nodes)).run([el('Image', '', pic)]);
    const described = await (await createNode(imageDescriptionNodes[0]!, claude, nodes)).run(afterOcr);
    expect(described[0]!.text).toBe('a description');
    expect(described[0]!.metadata.enrichment_origins!.text!.map((o) => o.type)).toEqual(['ocr', 'image_description']);
  });
});

describe('through the engine', () => {
  it('partition(fast) -> anthropic_ner -> chunk_by_title(contextual v1): entities on the elements, context on the chunks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-prompter-engine-'));
    try {
      writeFileSync(path.join(dir, 'a.txt'), 'Ada Lovelace was born in London.\n\nShe worked with Charles Babbage.\n');
      server = await startChatServer('anthropic', (seen) =>
        seen.text.includes('[START OF TEXT]')
          ? JSON.stringify({ items: [{ entity: seen.text.includes('Ada') ? 'Ada Lovelace' : 'Charles Babbage', type: 'PERSON' }], relationships: [] })
          : 'A note on Ada Lovelace',
      );
      const engine = createEngine().use(nodesPlugin);
      const plan = engine.build({
        name: 'ner',
        nodes: [
          { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
          { name: 'NER', type: 'prompter', subtype: 'anthropic_ner', settings: { provider_type: 'provider_a', model: 'claude-sonnet-4-20250514' } },
          { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { contextual_chunking_strategy: 'v1', include_orig_elements: true } },
        ],
      });
      const written: Element[] = [];
      const summary: JobSummary = await engine.run(plan, {
        source: folderSource(dir),
        destination: { write: async (flow) => void written.push(...flow.elements) },
      }).done;
      expect(summary.status).toBe('COMPLETED');
      expect(written).toHaveLength(1);
      expect(written[0]!.text).toBe('Prefix: A note on Ada Lovelace; Original: Ada Lovelace was born in London.\n\nShe worked with Charles Babbage.');
      const orig = written[0]!.metadata.orig_elements as Element[];
      expect(orig.map((e) => e.metadata.entities?.items[0]?.entity)).toEqual(['Ada Lovelace', 'Charles Babbage']);
      expect(written[0]!.metadata.enrichment_origins).toEqual({
        entities: [{ type: 'ner', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }],
        text: [{ type: 'contextual_chunking', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

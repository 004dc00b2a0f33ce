import { afterEach, describe, expect, it, vi } from 'vitest';
import { ocrNodes } from '../../src/prompter/ocr.node.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const node = (subtype: string) => ocrNodes.find((n) => n.subtype === subtype)!;
const pic = { image_base64: PNG_1X1, image_mime_type: 'image/png' };

describe('generative ocr', () => {
  it('registers anthropic, bedrock and openai', () => {
    expect(ocrNodes.map((n) => n.subtype).sort()).toEqual(['anthropic_ocr', 'bedrock_ocr', 'openai_ocr']);
  });

  it('reads only extract_image_block_types, skipping Images an image description node handles', async () => {
    server = await startChatServer('anthropic', () => '  Transcribed text  ');
    const imageDescription = {
      name: 'Describe',
      type: 'prompter' as const,
      subtype: 'anthropic_image_description',
      settings: { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' },
    };
    const { run } = await createNode(node('anthropic_ocr'), { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' }, [
      hiRes(['NarrativeText', 'Image', 'Table']),
      imageDescription,
    ]);
    const input = [
      el('NarrativeText', 'Teh scanned txt', pic),
      el('Title', 'A title with a picture', pic),
      el('Image', 'logo', pic),
      el('Table', 'a b', pic),
      el('NarrativeText', 'no picture stored'),
    ];
    const out = await run(input);
    expect(out[0]!.text).toBe('Transcribed text');
    expect(out[0]!.metadata.enrichment_origins).toEqual({ text: [{ type: 'ocr', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }] });
    expect(out[1]).toEqual(input[1]); // Title is not in extract_image_block_types
    expect(out[2]).toEqual(input[2]); // described by the image description node
    expect(out[3]!.text).toBe('Transcribed text'); // no table description node in the plan
    expect(out[4]).toEqual(input[4]);
    expect(chats('anthropic', server)).toHaveLength(2);
  });

  it('bedrock: resolves the reference aliases of extract_image_block_types (List-item)', async () => {
    server = await startChatServer('bedrock', (seen) => `read ${seen.images} image`);
    const model = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
    const { run } = await createNode(node('bedrock_ocr'), { provider_type: 'bedrock', model }, [hiRes(['List-item'])]);
    const out = await run([el('ListItem', 'itme one', pic), el('NarrativeText', 'x', pic)]);
    expect(out[0]!.text).toBe('read 1 image');
    expect(out[1]!.text).toBe('x');
    expect(chats('bedrock', server).map((s) => s.model)).toEqual([model]);
  });

  it('keeps the partitioner text when the model finds no text', async () => {
    server = await startChatServer('openai', () => '');
    const { run } = await createNode(node('openai_ocr'), { provider_type: 'openai', model: 'gpt-4o' }, [hiRes(['NarrativeText'])]);
    const out = await run([el('NarrativeText', 'original', pic)]);
    expect(out[0]!.text).toBe('original');
    expect(out[0]!.metadata.enrichment_origins).toBeUndefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageDescriptionNodes } from '../../src/prompter/image-description.node.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer, type ChatProvider } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const node = (provider: ChatProvider) => imageDescriptionNodes.find((n) => n.subtype === `${provider}_image_description`)!;

const MODELS: Record<ChatProvider, string> = {
  anthropic: 'claude-sonnet-4-20250514',
  openai: 'gpt-4o',
  bedrock: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  vertexai: 'gemini-2.0-flash-001',
};

describe('image_description', () => {
  it('registers one node per provider SPEC.md allows', () => {
    expect(imageDescriptionNodes.map((n) => n.subtype).sort()).toEqual([
      'anthropic_image_description',
      'bedrock_image_description',
      'openai_image_description',
      'vertexai_image_description',
    ]);
  });

  for (const provider of ['anthropic', 'openai', 'bedrock', 'vertexai'] as const) {
    it(`${provider}: describes each Image with a stored picture, over the SDK's wire format, and records the origin`, async () => {
      server = await startChatServer(provider, (seen) => `A bar chart (${seen.images} image) of revenue by year.`);
      const { run } = await createNode(node(provider), { provider_type: provider, model: MODELS[provider] }, [hiRes()]);
      const input = [
        el('Title', 'Annual report'),
        el('Image', 'Revenue 2023', { image_base64: PNG_1X1, image_mime_type: 'image/png' }),
        el('Image', 'no pixels'),
      ];
      const out = await run(input);
      expect(out).toHaveLength(3);
      expect(out[0]).toEqual(input[0]);
      expect(out[1]!.text).toBe('A bar chart (1 image) of revenue by year.');
      expect(out[1]!.element_id).toBe(input[1]!.element_id);
      expect(out[1]!.metadata.enrichment_origins).toEqual({ text: [{ type: 'image_description', provider, model: MODELS[provider] }] });
      expect(out[1]!.metadata.image_base64).toBe(PNG_1X1);
      // An Image without stored pixels cannot be described: left as it was.
      expect(out[2]).toEqual(input[2]);
      const sent = chats(provider, server);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.model).toBe(MODELS[provider]);
      expect(sent[0]!.images).toBe(1);
      expect(sent[0]!.text).toContain('Revenue 2023');
    });
  }

  it('recognises a JPEG by its bytes when image_mime_type is missing', async () => {
    server = await startChatServer('anthropic', () => 'A photo.');
    const { run } = await createNode(node('anthropic'), { provider_type: 'provider_a', model: 'claude-sonnet-4-20250514' }, [hiRes()]);
    const out = await run([el('Image', '', { image_base64: '/9j/4AAQSkZJRgABAQ' })]);
    expect(out[0]!.text).toBe('A photo.');
    const body = JSON.stringify(server.requests[0]!.json);
    expect(body).toContain('"media_type":"image/jpeg"');
  });
});

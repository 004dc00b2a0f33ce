import { afterEach, describe, expect, it, vi } from 'vitest';
import { tableDescriptionNodes } from '../../src/prompter/table-description.node.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const node = (subtype: string) => tableDescriptionNodes.find((n) => n.subtype === subtype)!;
const HTML = '<table><tr><th>Year</th><th>Revenue</th></tr><tr><td>2023</td><td>10</td></tr></table>';

describe('table_description', () => {
  it('vertexai: summarises a Table from its HTML and picture; text_as_html is kept', async () => {
    server = await startChatServer('vertexai', (seen) => (seen.text.includes('<td>2023</td>') ? 'Revenue was 10 in 2023.' : 'wrong input'));
    const { run } = await createNode(node('vertexai_table_description'), { provider_type: 'vertexai', model: 'gemini-2.0-flash-001' }, [hiRes()]);
    const out = await run([
      el('NarrativeText', 'Intro.'),
      el('Table', 'Year Revenue 2023 10', { text_as_html: HTML, image_base64: PNG_1X1, image_mime_type: 'image/png' }),
    ]);
    expect(out[1]!.text).toBe('Revenue was 10 in 2023.');
    expect(out[1]!.metadata.text_as_html).toBe(HTML);
    expect(out[1]!.metadata.enrichment_origins).toEqual({ text: [{ type: 'table_description', provider: 'vertexai', model: 'gemini-2.0-flash-001' }] });
    expect(out[0]!.text).toBe('Intro.');
    const sent = chats('vertexai', server);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.images).toBe(1);
  });

  it('anthropic and openai: a Table with only text is described from its text', async () => {
    for (const provider of ['anthropic', 'openai'] as const) {
      server = await startChatServer(provider, (seen) => `${seen.images} images; saw ${seen.text.includes('Year Revenue 2023 10') ? 'the text' : 'nothing'}`);
      const model = provider === 'anthropic' ? 'claude-sonnet-4-20250514' : 'gpt-4o-mini';
      const { run } = await createNode(node(`${provider}_table_description`), { provider_type: provider, model }, [hiRes()]);
      const out = await run([el('Table', 'Year Revenue 2023 10'), el('Table', '')]);
      expect(out[0]!.text).toBe('0 images; saw the text');
      // A table with neither picture, HTML nor text has nothing to describe.
      expect(out[1]!.text).toBe('');
      expect(out[1]!.metadata.enrichment_origins).toBeUndefined();
      expect(chats(provider, server)).toHaveLength(1);
      await server.close();
      server = undefined;
      vi.unstubAllEnvs();
    }
  });
});

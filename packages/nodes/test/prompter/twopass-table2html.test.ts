import { afterEach, describe, expect, it, vi } from 'vitest';
import { twopassTable2htmlNode } from '../../src/prompter/twopass-table2html.node.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe('twopass_table2html', () => {
  it('extracts, then verifies with the draft, on the default provider and model', async () => {
    const DRAFT = '<table><tr><td>2023</td><td>10</td></tr></table>';
    const FIXED = '<table><tr><th>Year</th><th>Revenue</th></tr><tr><td>2023</td><td>10</td></tr></table>';
    server = await startChatServer('anthropic', (seen) =>
      seen.text.includes('A first pass wrote this HTML') ? (seen.text.includes(DRAFT) ? FIXED : 'draft missing') : DRAFT,
    );
    const { run } = await createNode(twopassTable2htmlNode, {}, [hiRes()]);
    const out = await run([el('Table', 'Year Revenue 2023 10', { image_base64: PNG_1X1, image_mime_type: 'image/png' })]);
    expect(out[0]!.metadata.text_as_html).toBe(FIXED);
    expect(out[0]!.metadata.enrichment_origins).toEqual({
      text_as_html: [{ type: 'twopass_table2html', provider: 'anthropic', model: 'claude-sonnet-4-20250514' }],
    });
    const sent = chats('anthropic', server);
    expect(sent).toHaveLength(2);
    expect(sent.every((s) => s.model === 'claude-sonnet-4-20250514' && s.images === 1)).toBe(true);
  });

  it('takes no settings', () => {
    const schema = twopassTable2htmlNode.settings as { safeParse(v: unknown): { success: boolean } };
    expect(schema.safeParse({}).success).toBe(true);
    expect(schema.safeParse({ provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' }).success).toBe(false);
  });
});

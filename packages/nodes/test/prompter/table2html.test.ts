import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { table2htmlNodes } from '../../src/prompter/table2html.node.js';
import { tableHtmlOf } from '../../src/prompter/html-answer.js';
import type { LoopbackServer } from '../support/loopback-server.js';
import { chats, createNode, el, hiRes, PNG_1X1, startChatServer } from './chat-wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const node = (subtype: string) => table2htmlNodes.find((n) => n.subtype === subtype)!;

describe('tableHtmlOf', () => {
  it('keeps the table of a fenced, chatty answer in compact form', () => {
    expect(tableHtmlOf('Here it is:\n```html\n<table>\n  <tr>\n    <td>a</td>\n  </tr>\n</table>\n```\nDone.', 'x')).toBe('<table><tr><td>a</td></tr></table>');
  });
  it('rejects an answer without a table with ENRICHMENT_RESPONSE_INVALID', () => {
    let e: unknown;
    try {
      tableHtmlOf('I cannot read this table.', 'anthropic table2html');
    } catch (x) {
      e = x;
    }
    expect(isQuarryError(e) && e.code).toBe('ENRICHMENT_RESPONSE_INVALID');
  });
});

describe('table2html', () => {
  it('registers anthropic and openai only', () => {
    expect(table2htmlNodes.map((n) => n.subtype).sort()).toEqual(['anthropic_table2html', 'openai_table2html']);
  });

  for (const provider of ['anthropic', 'openai'] as const) {
    it(`${provider}: writes text_as_html from the table picture and records its origin`, async () => {
      server = await startChatServer(provider, (seen) =>
        seen.images === 1 ? '```html\n<table>\n<thead><tr><th>Year</th></tr></thead>\n<tbody><tr><td>2023</td></tr></tbody>\n</table>\n```' : 'no image',
      );
      const model = provider === 'anthropic' ? 'claude-opus-4-5-20251101' : 'gpt-4o';
      const { run } = await createNode(node(`${provider}_table2html`), { provider_type: provider, model }, [hiRes()]);
      const out = await run([el('Table', 'Year 2023', { image_base64: PNG_1X1, image_mime_type: 'image/png' }), el('NarrativeText', 'not a table')]);
      expect(out[0]!.metadata.text_as_html).toBe('<table><thead><tr><th>Year</th></tr></thead><tbody><tr><td>2023</td></tr></tbody></table>');
      expect(out[0]!.text).toBe('Year 2023');
      expect(out[0]!.metadata.enrichment_origins).toEqual({ text_as_html: [{ type: 'table2html', provider, model }] });
      expect(out[1]!.metadata).toEqual({});
      expect(chats(provider, server)).toHaveLength(1);
    });
  }

  it('fails the document with ENRICHMENT_RESPONSE_INVALID when the model returns no table', async () => {
    server = await startChatServer('openai', () => 'Sorry, I cannot help with that.');
    const { run } = await createNode(node('openai_table2html'), { provider_type: 'openai', model: 'gpt-4o' }, [hiRes()]);
    await expect(run([el('Table', 'a b')])).rejects.toMatchObject({ code: 'ENRICHMENT_RESPONSE_INVALID' });
  });
});

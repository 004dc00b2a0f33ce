import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { odtPartitioner } from '../../../src/partition/formats/odt.js';
import { makeOptions, partitionError } from './helpers.js';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';

async function buildOdt(body: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text');
  zip.file(
    'content.xml',
    `<?xml version="1.0"?><office:document-content ${NS}><office:automatic-styles><style:style style:name="P1" style:family="paragraph" style:parent-style-name="Title"/></office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

describe('odtPartitioner', () => {
  it('keeps the text of lists nested 50,000 deep (past the 512-level limit), with one warning', async () => {
    const depth = 50_000;
    const body = `${'<text:list><text:list-item>'.repeat(depth)}<text:p>Deepest item</text:p>${'</text:list-item></text:list>'.repeat(depth)}<text:p>After the list.</text:p>`;
    const options = makeOptions('deep.odt');
    const elements = await odtPartitioner.partition(await buildOdt(body), options);
    expect(elements.map((e) => e.text)).toEqual(['Deepest item', 'After the list.']);
    expect(elements[0]!.type).toBe('ListItem');
    expect(options.warnings).toHaveLength(1);
    expect(options.warnings[0]).toMatch(/^deep\.odt: the structure \(not the text\) of part content\.xml nested past the limit of 512 levels/);
  });

  it('maps headings, title style, paragraphs, nested lists, links and tables with spans', async () => {
    const body = [
      '<text:p text:style-name="P1">Field Guide</text:p>',
      '<text:h text:outline-level="2">Getting started</text:h>',
      '<text:p>The guide explains how<text:s text:c="2"/>the birds migrate, see <text:a xlink:href="https://example.org/birds">the atlas</text:a>.</text:p>',
      '<text:list><text:list-item><text:p>Swallows</text:p><text:list><text:list-item><text:p>Barn swallow</text:p></text:list-item></text:list></text:list-item></text:list>',
      '<text:section><text:p>Dover, DE 19901</text:p></text:section>',
      '<table:table><table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Species</text:p></table:table-cell><table:covered-table-cell/></table:table-row>',
      '<table:table-row><table:table-cell><text:p>Owl</text:p></table:table-cell><table:table-cell><text:p>3</text:p></table:table-cell></table:table-row></table:table>',
      '<text:p>   </text:p>',
    ].join('');
    const els = await odtPartitioner.partition(await buildOdt(body), makeOptions('guide.odt'));
    expect(els.map((e) => [e.type, e.text, e.metadata.category_depth])).toEqual([
      ['Title', 'Field Guide', 0],
      ['Title', 'Getting started', 1],
      ['NarrativeText', 'The guide explains how  the birds migrate, see the atlas.', 0],
      ['ListItem', 'Swallows', 0],
      ['ListItem', 'Barn swallow', 1],
      ['Address', 'Dover, DE 19901', 0],
      ['Table', 'Species Owl 3', undefined],
    ]);
    expect(els[2]!.metadata.link_urls).toEqual(['https://example.org/birds']);
    expect(els[6]!.metadata.text_as_html).toBe('<table><tr><td colspan="2">Species</td></tr><tr><td>Owl</td><td>3</td></tr></table>');
  });

  it('fails with FILE_UNREADABLE naming the file when content.xml is missing', async () => {
    const zip = new JSZip();
    zip.file('mimetype', 'application/vnd.oasis.opendocument.text');
    const err = await partitionError(odtPartitioner, await zip.generateAsync({ type: 'uint8array' }), makeOptions('empty.odt'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('empty.odt');
  });
});

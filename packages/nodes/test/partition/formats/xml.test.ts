import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { xmlPartitioner } from '../../../src/partition/formats/xml.js';
import { compareToReference, corpusDoc, hasCorpus, makeOptions, partitionError } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('xmlPartitioner', () => {
  it('emits the text of each element as it closes, entities decoded, classified like plain text', async () => {
    const xml = `<?xml version="1.0"?>
<library>
  <book id="1"><title>War &amp; Peace</title><summary>A sweeping novel that follows several families through the Napoleonic wars.</summary></book>
  <book id="2"><title><![CDATA[Anna <Karenina>]]></title></book>
</library>`;
    const els = await xmlPartitioner.partition(enc(xml), makeOptions('lib.xml'));
    expect(els.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'War & Peace'],
      ['NarrativeText', 'A sweeping novel that follows several families through the Napoleonic wars.'],
      ['Title', 'Anna <Karenina>'],
    ]);
  });

  it('keeps mixed-content text that follows child elements, and DTD-declared entities', async () => {
    const xml = `<!DOCTYPE note [<!ENTITY co "Acme Corp">]><note>Sent by &co; <b>today</b> to all staff</note>`;
    const els = await xmlPartitioner.partition(enc(xml), makeOptions('n.xml'));
    expect(els.map((e) => e.text)).toEqual(['today', 'Sent by Acme Corp  to all staff']);
  });

  it('with xml_keep_tags gives the whole document as one element', async () => {
    const xml = '<a><b>one</b><c>two</c></a>';
    const els = await xmlPartitioner.partition(enc(xml), makeOptions('k.xml', { xml_keep_tags: true }));
    expect(els.map((e) => [e.type, e.text])).toEqual([['UncategorizedText', xml]]);
  });

  it('decodes the encoding named in the XML declaration', async () => {
    const bytes = new Uint8Array([...enc('<?xml version="1.0" encoding="ISO-8859-1"?><r><n>Caf'), 0xe9, ...enc('</n></r>')]);
    const els = await xmlPartitioner.partition(bytes, makeOptions('l.xml'));
    expect(els.map((e) => e.text)).toEqual(['Café']);
  });

  it('fails with FILE_UNREADABLE naming the file for malformed XML', async () => {
    const err = await partitionError(xmlPartitioner, enc('<a><b></a>'), makeOptions('bad.xml'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('bad.xml');
  });
});

describe.skipIf(!hasCorpus)('xmlPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('factbook.xml matches the reference', async () => {
    const els = await xmlPartitioner.partition(corpusDoc('factbook.xml'), makeOptions('factbook.xml'));
    const { f1, types } = compareToReference('factbook.xml', els);
    expect(f1).toBe(1);
    expect(types).toBe(1);
  });
});

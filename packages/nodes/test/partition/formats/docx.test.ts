import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { docxPartitioner } from '../../../src/partition/formats/docx.js';
import { compareToReference, corpusDoc, hasCorpus, makeOptions, partitionError } from './helpers.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const p = (text: string, opts: { style?: string; bold?: boolean; num?: number; pageBreakBefore?: boolean } = {}): string => {
  const pPr = [
    opts.style ? `<w:pStyle w:val="${opts.style}"/>` : '',
    opts.num !== undefined ? `<w:numPr><w:ilvl w:val="${opts.num}"/><w:numId w:val="1"/></w:numPr>` : '',
  ].join('');
  const rPr = opts.bold ? '<w:rPr><w:b/></w:rPr>' : '';
  const lrpb = opts.pageBreakBefore ? '<w:lastRenderedPageBreak/>' : '';
  return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}<w:r>${rPr}${lrpb}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
};

const tc = (text: string, props = ''): string => `<w:tc>${props ? `<w:tcPr>${props}</w:tcPr>` : ''}${p(text)}</w:tc>`;

/** A minimal DOCX package: document, styles, rels, and optional header/footer parts. */
async function buildDocx(bodyXml: string, opts: { header?: string; footer?: string; sectPr?: string } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  const rels = [
    `<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>`,
    `<Relationship Id="rIdLink" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/>`,
  ];
  let refs = '';
  if (opts.header) {
    zip.file('word/header1.xml', `<w:hdr xmlns:w="${W}">${p(opts.header)}</w:hdr>`);
    rels.push(`<Relationship Id="rIdH" Type="${REL}/header" Target="header1.xml"/>`);
    refs += '<w:headerReference w:type="default" r:id="rIdH"/>';
  }
  if (opts.footer) {
    zip.file('word/footer1.xml', `<w:ftr xmlns:w="${W}">${p(opts.footer)}</w:ftr>`);
    rels.push(`<Relationship Id="rIdF" Type="${REL}/footer" Target="footer1.xml"/>`);
    refs += '<w:footerReference w:type="default" r:id="rIdF"/>';
  }
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  zip.file(
    'word/styles.xml',
    `<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/></w:style></w:styles>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${bodyXml}${opts.sectPr ?? `<w:sectPr>${refs}</w:sectPr>`}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

describe('docxPartitioner', () => {
  it('maps headers, styled headings, numbered and styled list items, narrative text and footers in order', async () => {
    const bytes = await buildDocx(
      [
        p('Annual Report', { style: 'Title' }),
        p('Overview', { style: 'Heading1' }),
        p('Details', { style: 'Heading2' }),
        p('The committee reviewed the budget and approved the plan for the next year.'),
        p('• First point'),
        p('Second point', { num: 1 }),
        p('Third point', { style: 'ListBullet' }),
        p('   '),
        p('Q3 2024'),
      ].join(''),
      { header: 'Company Confidential', footer: 'Page footer' },
    );
    const els = await docxPartitioner.partition(bytes, makeOptions('report.docx'));
    expect(els.map((e) => [e.type, e.text])).toEqual([
      ['Header', 'Company Confidential'],
      ['Title', 'Annual Report'],
      ['Title', 'Overview'],
      ['Title', 'Details'],
      ['NarrativeText', 'The committee reviewed the budget and approved the plan for the next year.'],
      ['ListItem', 'First point'],
      ['ListItem', 'Second point'],
      ['ListItem', 'Third point'],
      ['UncategorizedText', 'Q3 2024'],
      ['Footer', 'Page footer'],
    ]);
    expect(els[0]!.metadata.header_footer_type).toBe('primary');
    expect(els[9]!.metadata.header_footer_type).toBe('primary');
    expect(els[2]!.metadata.category_depth).toBe(0);
    expect(els[3]!.metadata.category_depth).toBe(1);
    expect(els[6]!.metadata.category_depth).toBe(1);
    // Without recorded page breaks the reference writes no page numbers.
    expect(els.every((e) => e.metadata.page_number === undefined)).toBe(true);
  });

  it('records bold and italic runs and external hyperlinks', async () => {
    const body = `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Bold</w:t></w:r><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:r><w:rPr><w:i w:val="1"/></w:rPr><w:t>italic</w:t></w:r><w:r><w:rPr><w:b w:val="0"/></w:rPr><w:t xml:space="preserve"> plain, see </w:t></w:r><w:hyperlink r:id="rIdLink"><w:r><w:t>the site</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> for more.</w:t></w:r></w:p>`;
    const [el] = await docxPartitioner.partition(await buildDocx(body), makeOptions('links.docx'));
    expect(el!.text).toBe('Bold and italic plain, see the site for more.');
    expect(el!.metadata.emphasized_text_contents).toEqual(['Bold', 'italic']);
    expect(el!.metadata.emphasized_text_tags).toEqual(['b', 'i']);
    expect(el!.metadata.link_texts).toEqual(['the site']);
    expect(el!.metadata.link_urls).toEqual(['https://example.com/']);
    expect(el!.metadata.links).toEqual([{ text: 'the site', url: 'https://example.com/', start_index: 27 }]);
  });

  it('turns a table into one Table with text_as_html, merged cells as spans', async () => {
    const table =
      '<w:tbl>' +
      `<w:tr>${tc('Name')}${tc('Score', '<w:gridSpan w:val="2"/>')}</w:tr>` +
      `<w:tr>${tc('Ann', '<w:vMerge w:val="restart"/>')}${tc('1')}${tc('2')}</w:tr>` +
      `<w:tr>${tc('', '<w:vMerge/>')}${tc('3 &amp; 4')}${tc('&lt;5&gt;')}</w:tr>` +
      '</w:tbl>';
    const els = await docxPartitioner.partition(await buildDocx(table), makeOptions('t.docx'));
    expect(els).toHaveLength(1);
    expect(els[0]!.type).toBe('Table');
    expect(els[0]!.text).toBe('Name Score Ann 1 2 3 & 4 <5>');
    expect(els[0]!.metadata.text_as_html).toBe(
      '<table><tr><td>Name</td><td colspan="2">Score</td></tr><tr><td rowspan="2">Ann</td><td>1</td><td>2</td></tr><tr><td>3 &amp; 4</td><td>&lt;5&gt;</td></tr></table>',
    );
  });

  it('counts pages from rendered page breaks and emits PageBreak elements when asked', async () => {
    const bytes = await buildDocx(p('First page text is here.') + p('Second page text is here.', { pageBreakBefore: true }));
    const plain = await docxPartitioner.partition(bytes, makeOptions('pages.docx'));
    expect(plain.map((e) => [e.text, e.metadata.page_number])).toEqual([
      ['First page text is here.', 1],
      ['Second page text is here.', 2],
    ]);
    const withBreaks = await docxPartitioner.partition(bytes, makeOptions('pages.docx', { include_page_breaks: true }));
    expect(withBreaks.map((e) => e.type)).toEqual(['NarrativeText', 'PageBreak', 'NarrativeText']);
  });

  it('reads a section-less document', async () => {
    const bytes = await buildDocx(p('Only a paragraph without section properties is present.'), { sectPr: '' });
    const els = await docxPartitioner.partition(bytes, makeOptions('nosect.docx'));
    expect(els.map((e) => e.type)).toEqual(['NarrativeText']);
  });

  it('fails with FILE_UNREADABLE naming the file for a truncated zip and for a non-DOCX', async () => {
    const good = await buildDocx(p('Hello there, this document is fine.'));
    for (const [bytes, name] of [
      [good.subarray(0, Math.floor(good.length / 2)), 'truncated.docx'],
      [new TextEncoder().encode('this is just text, not a zip'), 'notes.docx'],
    ] as const) {
      const err = await partitionError(docxPartitioner, bytes, makeOptions(name));
      expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
      expect((err as Error).message).toContain(name);
    }
    const zip = new JSZip();
    zip.file('readme.txt', 'a zip, but no word/document.xml');
    const err = await partitionError(docxPartitioner, await zip.generateAsync({ type: 'uint8array' }), makeOptions('other.docx'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('other.docx');
  });
});

describe.skipIf(!hasCorpus)('docxPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('handbook-1p.docx matches the reference text and types', async () => {
    const els = await docxPartitioner.partition(corpusDoc('handbook-1p.docx'), makeOptions('handbook-1p.docx'));
    const { f1, types } = compareToReference('handbook-1p.docx', els);
    expect(f1).toBeGreaterThanOrEqual(0.99);
    expect(types).toBeGreaterThanOrEqual(0.9);
    expect(els[0]).toMatchObject({ type: 'Header', text: 'US Trustee Handbook', metadata: { header_footer_type: 'primary' } });
    expect(els.at(-1)).toMatchObject({ type: 'Footer', text: 'Copyright' });
  });

  it('docx-tables.docx keeps every table cell; headings are untyped paragraphs in current reference versions', async () => {
    const els = await docxPartitioner.partition(corpusDoc('docx-tables.docx'), makeOptions('docx-tables.docx'));
    const { f1, types } = compareToReference('docx-tables.docx', els);
    expect(f1).toBeGreaterThanOrEqual(0.99);
    // The three Table elements agree; the reference (v0.14) also typed short paragraphs as Title,
    // a text rule later reference versions dropped for DOCX.
    expect(types).toBeGreaterThanOrEqual(0.5);
    expect(els.filter((e) => e.type === 'Table').map((e) => e.text)).toEqual([
      'Header Col 1 Header Col 2 Lorem ipsum A link example',
      'a >b< c d e f g&t h i j k l',
      'a b c d e',
    ]);
  });
});

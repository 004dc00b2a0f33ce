import { readFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { pptxPartitioner } from '../../../src/partition/formats/pptx.js';
import { compareToReference, corpusDir, corpusDoc, hasCorpus, makeOptions, tokenF1, partitionError } from './helpers.js';

const NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const para = (text: string, opts: { bullet?: boolean; lvl?: number } = {}): string =>
  `<a:p>${opts.bullet || opts.lvl ? `<a:pPr${opts.lvl ? ` lvl="${opts.lvl}"` : ''}>${opts.bullet ? '<a:buChar char="•"/>' : ''}</a:pPr>` : ''}<a:r><a:t>${text}</a:t></a:r></a:p>`;

const xfrm = (x: number, y: number): string => `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="100" cy="100"/></a:xfrm>`;

const shape = (id: number, body: string, opts: { ph?: string; pos?: [number, number] } = {}): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="s${id}"/><p:cNvSpPr/><p:nvPr>${opts.ph ?? ''}</p:nvPr></p:nvSpPr><p:spPr>${opts.pos ? xfrm(...opts.pos) : ''}</p:spPr><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp>`;

const table = (rows: string[][]): string =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="90" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="5000"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${rows
    .map(
      (r) =>
        `<a:tr h="1">${r.map((c) => (c === '<h>' ? '<a:tc hMerge="1"><a:txBody><a:bodyPr/><a:p/></a:txBody></a:tc>' : `<a:tc${c.startsWith('2:') ? ' gridSpan="2"' : ''}><a:txBody><a:bodyPr/>${para(c.replace(/^2:/, ''))}</a:txBody></a:tc>`)).join('')}</a:tr>`,
    )
    .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;

/** A minimal PPTX: two slides (the first with notes), a layout giving the title its position. */
async function buildPptx(slides: Array<{ shapes: string; notes?: string }>): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
  );
  zip.file(
    'ppt/presentation.xml',
    `<p:presentation ${NS}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rIdS${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
  );
  zip.file(
    'ppt/_rels/presentation.xml.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rIdS${i + 1}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`).join('')}</Relationships>`,
  );
  zip.file(
    'ppt/slideLayouts/slideLayout1.xml',
    `<p:sldLayout ${NS}><p:cSld><p:spTree>${shape(2, '', { ph: '<p:ph type="title"/>', pos: [100, 200] })}</p:spTree></p:cSld></p:sldLayout>`,
  );
  slides.forEach((s, i) => {
    const n = i + 1;
    zip.file(`ppt/slides/slide${n}.xml`, `<p:sld ${NS}><p:cSld><p:spTree>${s.shapes}</p:spTree></p:cSld></p:sld>`);
    let rels = `<Relationship Id="rIdL" Type="${REL}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`;
    if (s.notes) {
      zip.file(
        `ppt/notesSlides/notesSlide${n}.xml`,
        `<p:notes ${NS}><p:cSld><p:spTree>${shape(3, para(s.notes), { ph: '<p:ph type="body" idx="1"/>' })}</p:spTree></p:cSld></p:notes>`,
      );
      rels += `<Relationship Id="rIdN" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/>`;
    }
    zip.file(
      `ppt/slides/_rels/slide${n}.xml.rels`,
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    );
  });
  return zip.generateAsync({ type: 'uint8array' });
}

describe('pptxPartitioner', () => {
  it('maps title placeholders, bullets with depth, text boxes, tables and notes per slide', async () => {
    const bytes = await buildPptx([
      {
        notes: 'Remember to thank the sponsors.',
        shapes: [
          // Listed first but placed lower: shapes are ordered by position.
          shape(4, para('Revenue grew in every region', { bullet: true }) + para('Europe led the growth', { bullet: true, lvl: 1 }), {
            ph: '<p:ph idx="1"/>',
            pos: [100, 1000],
          }),
          // The title has no position of its own: it inherits (100, 200) from the layout.
          shape(2, para('Quarterly Results') + para('Fiscal Year 2024'), { ph: '<p:ph type="title"/>' }),
        ].join(''),
      },
      {
        shapes: [
          shape(5, para('The board approved the dividend after a long discussion.'), { pos: [100, 100] }),
          table([
            ['Region', '2:Sales', '<h>'],
            ['EU', '10', '12'],
          ]),
        ].join(''),
      },
    ]);
    const els = await pptxPartitioner.partition(bytes, makeOptions('deck.pptx'));
    expect(els.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.category_depth])).toEqual([
      ['NarrativeText', 'Remember to thank the sponsors.', 1, 0],
      ['Title', 'Quarterly Results', 1, 0],
      ['Title', 'Fiscal Year 2024', 1, 1],
      ['ListItem', 'Revenue grew in every region', 1, 0],
      ['ListItem', 'Europe led the growth', 1, 1],
      ['NarrativeText', 'The board approved the dividend after a long discussion.', 2, 0],
      ['Table', 'Region Sales EU 10 12', 2, undefined],
    ]);
    expect(els[6]!.metadata.text_as_html).toBe('<table><tr><td>Region</td><td colspan="2">Sales</td></tr><tr><td>EU</td><td>10</td><td>12</td></tr></table>');
  });

  it('emits a PageBreak between slides when asked', async () => {
    const bytes = await buildPptx([
      { shapes: shape(2, para('One'), { ph: '<p:ph type="title"/>' }) },
      { shapes: shape(2, para('Two'), { ph: '<p:ph type="title"/>' }) },
    ]);
    const els = await pptxPartitioner.partition(bytes, makeOptions('b.pptx', { include_page_breaks: true }));
    expect(els.map((e) => e.type)).toEqual(['Title', 'PageBreak', 'Title']);
  });

  it('fails with FILE_UNREADABLE naming the file for a non-PPTX', async () => {
    const err = await partitionError(pptxPartitioner, new TextEncoder().encode('not a presentation'), makeOptions('fake.pptx'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('fake.pptx');
  });
});

describe.skipIf(!hasCorpus)('pptxPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('science-exploration-1p.pptx matches the reference', async () => {
    const els = await pptxPartitioner.partition(corpusDoc('science-exploration-1p.pptx'), makeOptions('science-exploration-1p.pptx'));
    const { f1, types } = compareToReference('science-exploration-1p.pptx', els);
    expect(f1).toBeGreaterThanOrEqual(0.99);
    expect(types).toBe(1);
    const gold = readFileSync(path.join(corpusDir, 'expected', 'science-exploration-1p.pptx.gold.txt'), 'utf8');
    // The gold text also holds the slide master's decoration ("NASA ...", "IT SUMMIT 2011").
    const goldF1 = tokenF1(els.map((e) => e.text).join(' '), gold);
    console.log(`[corpus] science-exploration-1p.pptx gold.txt token F1 ${goldF1.toFixed(3)}`);
    expect(goldF1).toBeGreaterThan(0.9);
  });
});

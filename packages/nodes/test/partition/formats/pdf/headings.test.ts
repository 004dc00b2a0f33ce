import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { headingDepths, looksLikeCode, sectionDepth } from '../../../../src/partition/formats/pdf/headings.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { partitionFile } from '../../../../src/partition/partition-file.js';
import { corpusDoc, hasCorpus } from '../helpers.js';
import { makePdf, textLines, type FixtureText } from './fixture.js';

afterAll(async () => {
  await stopPageWorker();
});

const para = (lines: string[], top: number): FixtureText[] => textLines(lines, 72, 11, top);

/**
 * A two-page report: a bold title, numbered sections and subsections in bold, body paragraphs, a
 * table whose header cells are bold and worded like titles, small figure labels, and a code line.
 */
function report(): Uint8Array {
  return makePdf([
    {
      texts: [
        { x: 72, y: 740, size: 20, text: 'Annual Report on Widgets', bold: true },
        { x: 72, y: 700, size: 14, text: '1. Introduction', bold: true },
        ...para(
          ['Widgets were made in three plants this year, and every plant kept its', 'schedule. This report sums up what was made and what was learned.'],
          680,
        ),
        { x: 72, y: 630, size: 12, text: '1.1 Scope', bold: true },
        ...para(['The report covers the plants of the northern region only; the others', 'report on their own.'], 612),
        { x: 72, y: 560, size: 11, text: 'Column name', bold: true },
        { x: 180, y: 560, size: 11, text: 'Data type', bold: true },
        { x: 270, y: 560, size: 11, text: 'Length', bold: true },
        { x: 72, y: 544, size: 11, text: 'Plant name' },
        { x: 180, y: 544, size: 11, text: 'Varchar' },
        { x: 270, y: 544, size: 11, text: '40' },
        { x: 90, y: 470, size: 7, text: 'Nut case' },
        { x: 200, y: 470, size: 7, text: 'Keyway' },
        { x: 300, y: 430, size: 7, text: 'Bearing Housing' },
        ...para(['The query below lists the plants that reported late this year:'], 400),
        { x: 90, y: 380, size: 11, text: 'SELECT name FROM plants WHERE late = 1' },
        ...para(['Nothing else was late, and the plants met every target that was set.'], 356),
      ],
    },
    {
      texts: [
        { x: 72, y: 740, size: 14, text: '2. Results', bold: true },
        ...para(['Output grew by a tenth over last year, mostly in the second half of the', 'year, when the new line came into service.'], 720),
        { x: 72, y: 670, size: 12, text: '2.1 Findings', bold: true },
        ...para(['The new line made fewer faulty widgets than the old one, and it used', 'less power for each widget made.'], 652),
      ],
    },
  ]);
}

const titles = (els: Element[]) => els.filter((e) => e.type === 'Title').map((e) => [e.text, e.metadata.category_depth]);

describe('PDF headings', () => {
  for (const strategy of ['fast', 'hi_res'] as const) {
    it(`${strategy}: finds the headings and their levels, not table cells, figure labels or code`, async () => {
      const els = await partitionFile(report(), { filename: 'report.pdf', strategy });
      expect(titles(els)).toEqual([
        ['Annual Report on Widgets', 0],
        ['1. Introduction', 0],
        ['1.1 Scope', 1],
        ['2. Results', 0],
        ['2.1 Findings', 1],
      ]);
      const byText = (t: string) => els.find((e) => e.text === t)!;
      // The list above leaves out the table's header cells (hi_res puts them in a Table), the figure
      // labels and the code line, which are there as other elements.
      for (const t of ['Nut case', 'Keyway', 'Bearing Housing', 'SELECT name FROM plants WHERE late = 1']) expect(byText(t).type, t).not.toBe('Title');
      expect(els.some((e) => e.text.includes('Column name'))).toBe(true);
      // parent_id follows the levels: a subsection under its section, body text under its heading.
      expect(byText('1.1 Scope').metadata.parent_id).toBe(byText('1. Introduction').element_id);
      expect(byText('2.1 Findings').metadata.parent_id).toBe(byText('2. Results').element_id);
      expect(els.find((e) => e.text.startsWith('The new line made'))!.metadata.parent_id).toBe(byText('2.1 Findings').element_id);
    });
  }

  it('decides Titles from the page: a page partitioned alone (a split part) gives the same elements', async () => {
    // Page 1's 10 pt text outweighs page 2's 13 pt text: against the document's body size page 2's
    // short line "Regional Summary" would stand out; against its own page's, it does not.
    const long = 'Output grew in every plant of the region, and the plants kept to their schedules all year long.';
    const pages = [
      {
        texts: textLines(
          Array.from({ length: 30 }, () => long),
          72,
          10,
          740,
        ),
      },
      {
        texts: [
          { x: 72, y: 640, size: 13, text: 'Regional Summary' },
          ...textLines([long, long, long], 72, 13, 600),
          { x: 72, y: 500, size: 16, text: 'Outlook', bold: true },
          ...textLines([long, long], 72, 13, 470),
        ],
      },
    ];
    const seen = (els: Element[]) => els.map((e) => [e.type, e.text.slice(0, 30)]);
    const whole = await partitionFile(makePdf(pages), { filename: 'regions.pdf', strategy: 'fast' });
    const second = await partitionFile(makePdf([pages[1]!]), { filename: 'regions.pdf', strategy: 'fast', starting_page_number: 2 });
    expect(seen(second)).toEqual(seen(whole.filter((e) => e.metadata.page_number === 2)));
    expect(seen(second).filter(([type]) => type === 'Title')).toEqual([['Title', 'Outlook']]);
  });

  it('finds the headings of two text columns side by side, each over its paragraph', async () => {
    const col = (x: number, heading: string): FixtureText[] => [
      { x, y: 700, size: 13, text: heading, bold: true },
      ...textLines(['The card unlocks the', 'car as you come near', 'and the mirrors fold.'], x, 10, 684),
    ];
    // Narrow columns: the headings are as close as the cells of a table row.
    const bytes = makePdf([{ texts: [...col(72, 'Car unlocking'), ...col(190, 'Car locking')] }]);
    const els = await partitionFile(bytes, { filename: 'columns.pdf', strategy: 'fast' });
    expect(titles(els)).toEqual([
      ['Car unlocking', 0],
      ['Car locking', 0],
    ]);
  });

  it('splits a body-sized numbered heading off the paragraph under it', async () => {
    const bytes = makePdf([
      {
        texts: [
          ...para(['A first paragraph that sets the scene, long enough to be body text here.'], 730),
          { x: 72, y: 700, size: 11, text: '3.2.1 Cooling' },
          ...para(
            ['The plant is cooled by river water, drawn through two filters and returned', 'downstream at most five degrees warmer than it came in.'],
            686,
          ),
        ],
      },
    ]);
    const els = await partitionFile(bytes, { filename: 'cooling.pdf', strategy: 'fast' });
    expect(els.map((e) => [e.type, e.text.slice(0, 20), e.metadata.category_depth])).toEqual([
      ['NarrativeText', 'A first paragraph th', undefined],
      ['Title', '3.2.1 Cooling', 2],
      ['NarrativeText', 'The plant is cooled ', undefined],
    ]);
  });

  it('tells headings from lists, tables of contents, lead-in lines, cell rows and noise', async () => {
    const text = 'The plant is cooled by river water, drawn through two filters and returned downstream.';
    const bytes = makePdf([
      {
        texts: [
          // A table of contents: numbered lines of the body's style, stacked.
          { x: 72, y: 700, size: 11, text: '5.1 Feeding' },
          { x: 72, y: 686, size: 11, text: '5.2 Breeding' },
          { x: 72, y: 672, size: 11, text: '5.3 Communication' },
          ...para([text], 656),
          // A lead-in line set like the list under it.
          { x: 72, y: 640, size: 16, text: 'Things to bring along' },
          { x: 72, y: 622, size: 16, text: '• A warm coat' },
          { x: 72, y: 604, size: 16, text: '• Dry socks' },
          // Headings set apart by size may exclaim, or start in lower case; a code-like token is none.
          { x: 72, y: 560, size: 18, text: 'Let’s swim!' },
          ...para([text, text], 540),
          { x: 72, y: 500, size: 18, text: 'heading level one', bold: true },
          ...para([text, text], 480),
          { x: 72, y: 440, size: 18, text: 'Pls5J' },
          ...para([text, text], 420),
          // Header cells of one table: the same style in line, over the table's rows.
          { x: 72, y: 380, size: 14, text: 'Food' },
          { x: 300, y: 380, size: 14, text: 'Calories' },
          ...[
            ['Leaves of ash and elm', '50'],
            ['Berries', '150'],
            ['Grain and seeds', '320'],
          ].flatMap(([food, kcal], i) => [
            { x: 72, y: 362 - 14 * i, size: 11, text: food! },
            { x: 300, y: 362 - 14 * i, size: 11, text: kcal! },
          ]),
          ...para([text, text], 300),
          // An outline list: each level indented under the one above.
          { x: 90, y: 250, size: 11, text: '1. Appendix A: Glossary' },
          { x: 123, y: 236, size: 11, text: '1.1. Terms of the trade' },
          { x: 156, y: 222, size: 11, text: '1.1.1. Words for the tools' },
          ...para([text, text], 200),
        ],
      },
    ]);
    const els = await partitionFile(bytes, { filename: 'not-headings.pdf', strategy: 'fast' });
    expect(titles(els).map(([t]) => t)).toEqual(['Let’s swim!', 'heading level one']);
  });

  it('a body-sized numbered heading is one, with text under it; a section number set at a tab stop joins its heading', async () => {
    const bytes = makePdf([
      {
        texts: [
          ...para(['A first paragraph that sets the scene, long enough to be body text here.'], 740),
          { x: 72, y: 710, size: 14, text: '1.2.1.' },
          { x: 130, y: 710, size: 14, text: 'Cooling' },
          ...para(['The plant is cooled by river water, drawn through two filters and returned', 'downstream at most five degrees warmer.'], 690),
          { x: 72, y: 650, size: 11, text: '1.2.2 Heating' },
          ...para(['Waste heat warms the offices in winter, through a loop of its own that the', 'plant runs at night.'], 632),
        ],
      },
    ]);
    const els = await partitionFile(bytes, { filename: 'tab.pdf', strategy: 'fast' });
    expect(titles(els)).toEqual([
      ['1.2.1. Cooling', 2],
      ['1.2.2 Heating', 2],
    ]);
  });

  for (const strategy of ['fast', 'hi_res'] as const) {
    it(`${strategy}: a slide's lone title, headings over tables of bold labels, not a drawn figure's labels (Chromium's PDF)`, async () => {
      const bytes = new Uint8Array(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'headings-classes.pdf')));
      const els = await partitionFile(bytes, { filename: 'headings-classes.pdf', strategy });
      // Page 2's tables hold bold 14 pt labels beside 12 pt values: their values are the page's body
      // text, so the bold headings stand out; page 3's bold group labels are parts of the drawing.
      expect(titles(els).map(([t]) => t)).toEqual(['Quarterly Review', '2. Admission to the exchange', 'Product standard']);
      expect(els.filter((e) => e.type === 'Table').map((e) => e.text.split(' ').slice(0, 2).join(' '))).toEqual(['Date of', 'Standard name']);
      for (const label of ['Gear train assembly', 'Cover and seal group']) expect(els.find((e) => e.text === label)?.type, label).not.toBe('Title');
      expect(els.find((e) => e.text.startsWith('Figure 2.'))?.type).toBe('FigureCaption');
    });
  }

  it('reads section numbers, code and heading styles', () => {
    expect(['1 Introduction', '2. Methods', '2.1.6 Error codes', 'IV. Results', 'Appendix B Tables'].map(sectionDepth)).toEqual([0, 0, 2, 0, 0]);
    // Right-to-left sections "3-" and "5-2" come out of the PDF in visual order (Docling's right_to_left_03).
    expect(['-3 پذيرش در بورس', '-2-5 استاندارد کالا', '-5 dB'].map(sectionDepth)).toEqual([0, 1, undefined]);
    expect(['2019 Annual Report', '12.5 % of the total', 'Introduction'].map(sectionDepth)).toEqual([undefined, undefined, undefined]);
    for (const code of ['SELECT * FROM t', 'int main() {', 'x = f(y);', 'return value']) expect(looksLikeCode(code), code).toBe(true);
    for (const text of ['Data Types and Lengths', 'Results (2024)']) expect(looksLikeCode(text), text).toBe(false);
    // Unnumbered headings: ranked by size, bold first; the style of numbered ones gives their level.
    expect(
      headingDepths([
        { style: '20|b', size: 20 },
        { style: '14|b', size: 14, depth: 0 },
        { style: '12|b', size: 12 },
        { style: '12|b', size: 12, depth: 1 },
        { style: '12|', size: 12 },
      ]),
    ).toEqual([0, 0, 1, 1, 2]);
    // Without numbers: a title in a style of its own and the top-level sections are both depth 0.
    expect(
      headingDepths([
        { style: '24|b', size: 24 },
        { style: '16|b', size: 16 },
        { style: '13|b', size: 13 },
        { style: '16|b', size: 16 },
      ]),
    ).toEqual([0, 0, 1, 0]);
  });
});

describe.skipIf(!hasCorpus)('PDF headings on the corpus (skipped: ../shared/corpus absent)', () => {
  // A two-column Korean card leaflet: 16 pt bold titles over each column, 8 pt bold subheadings;
  // the 6.5 pt bold table header cells ("업종", "적립 대상") are not headings. In hi_res the tables
  // take the regular text, which leaves bold paragraphs as the body: the subheadings are not found.
  it('korean-text-with-tables.pdf: the column titles and subheadings, not the table header cells', async () => {
    for (const strategy of ['fast', 'hi_res'] as const) {
      const els = await partitionFile(corpusDoc('korean-text-with-tables.pdf'), { filename: 'korean-text-with-tables.pdf', strategy });
      const t = els.filter((e) => e.type === 'Title').map((e) => e.text);
      expect(t, strategy).toEqual(expect.arrayContaining(['할인점·주유·온라인쇼핑몰 1.5%빅포인트 적립', '커피전문점·제과점·편의점 2%빅포인트 적립']));
      if (strategy === 'fast') expect(t).toEqual(expect.arrayContaining(['전월 이용금액 제외 대상', '적립 제외 대상', '기타']));
      expect(t, strategy).not.toContain('업종');
      expect(t, strategy).not.toContain('적립 대상');
    }
  });

  // DA-619p.pdf has a four-level outline (Codex DAO > MAIN GAME > CREATURES > Abomination, ...):
  // its entries are Titles at the outline's level, with either engine.
  it('DA-619p.pdf: headings named by the outline take its levels', async () => {
    for (const pdf_engine of ['pdfium', 'pdfjs'] as const) {
      const els = await partitionFile(corpusDoc('DA-619p.pdf'), { filename: 'DA-619p.pdf', strategy: 'fast', pdf_engine });
      const find = (text: string, page: number) => els.find((e) => e.text === text && e.metadata.page_number === page);
      expect(find('CREATURES', 6), pdf_engine).toMatchObject({ type: 'Title', metadata: { category_depth: 2 } });
      expect(find('Abomination', 6), pdf_engine).toMatchObject({ type: 'Title', metadata: { category_depth: 3 } });
      expect(find('Arcane Horror', 6)!.metadata.parent_id).toBe(find('CREATURES', 6)!.element_id);
    }
  }, 300_000);
});

import { describe, expect, it } from 'vitest';
import { classifyBlock, classifyBlockText, detectPageFurniture, isPageNumberText } from '../../../../src/partition/formats/pdf/classify.js';
import { headingContext } from '../../../../src/partition/formats/pdf/headings.js';
import type { PageLayout, TextBlock } from '../../../../src/partition/formats/pdf/layout-types.js';

function block(text: string, y0: number, opts: Partial<TextBlock> = {}): TextBlock {
  return { kind: 'text', text, box: { x0: 72, y0, x1: 300, y1: y0 + 12 }, lineCount: 1, size: 10, font: 'f', ...opts };
}

function page(pageNumber: number, blocks: TextBlock[]): PageLayout {
  return { pageNumber, width: 612, height: 792, blocks, textChars: 100, badChars: 0 };
}

describe('isPageNumberText', () => {
  it('recognizes page number forms', () => {
    for (const t of ['12', '- 3 -', 'Page 4 of 9', 'xii', '(7)', 'p. 12']) expect(isPageNumberText(t), t).toBe(true);
    for (const t of ['1.9', 'Chapter 2', '2019 Annual Report']) expect(isPageNumberText(t), t).toBe(false);
  });
});

describe('detectPageFurniture', () => {
  it('marks margin text as header, footer or page number, and repeated text in a wider band', () => {
    const pages = [1, 2, 3].map((n) =>
      page(n, [
        block('ACME Corp. Quarterly Report', 20),
        block(`Confidential draft ${n}`, 70),
        block('Body text of the page, long enough to be a paragraph of narrative text.', 300, { lineCount: 5 }),
        block(String(n), 760),
      ]),
    );
    const roles = detectPageFurniture(pages);
    const p1 = pages[0]!.blocks;
    expect(roles.get(p1[0]!)).toBe('Header');
    // At 8.8 % of the page: outside the margin band, but repeated (up to the digits) on every page.
    expect(roles.get(p1[1]!)).toBe('Header');
    expect(roles.get(p1[2]!)).toBeUndefined();
    expect(roles.get(p1[3]!)).toBe('PageNumber');
  });

  it('does not mark unrepeated text outside the margin band', () => {
    const pages = [page(1, [block('A heading near the top', 70)]), page(2, [block('Another heading', 70)])];
    expect(detectPageFurniture(pages).size).toBe(0);
  });
});

describe('classifyBlock', () => {
  const body = block('Body text of the page, long enough to be a paragraph of narrative text.', 400, { lineCount: 4, size: 10 });
  const ctx = headingContext([page(1, [body])]);
  const cls = (b: TextBlock, fonts?: PageLayout['fonts']) => classifyBlock(b, { ...page(1, [body, b]), ...(fonts ? { fonts } : {}) }, ctx);

  it('follows the reference order: list items, e-mail, address, narrative; a title needs the look of one', () => {
    expect(cls(block('• Apples and pears', 100))).toEqual({ type: 'ListItem', text: 'Apples and pears' });
    expect(cls(block('\uF0B7 Symbol-font bullet', 100))).toEqual({ type: 'ListItem', text: 'Symbol-font bullet' });
    expect(cls(block('1. First step of the procedure', 100))?.type).toBe('ListItem');
    expect(cls(block('jane@example.com', 100))?.type).toBe('EmailAddress');
    expect(cls(block('Doylestown, PA 18901', 100))?.type).toBe('Address');
    expect(cls(block('The committee approved the budget after a long debate.', 100))?.type).toBe('NarrativeText');
    expect(cls(block('Fig. 3. Accuracy by model size', 100))?.type).toBe('FigureCaption');
    expect(cls(block('[그림 4-3] 미래 보안기술 도출 과정', 100))?.type).toBe('FigureCaption');
    // Numbered by chapter ("Table 6.1:", "Figure 2-3."), as the ICDAR dev set's eu-004 numbers its tables.
    expect(cls(block('Table 6.1: Size of the market across the member states', 100))?.type).toBe('FigureCaption');
    expect(cls(block('Figure 2-3. Layout of the plant', 100))?.type).toBe('FigureCaption');
    expect(cls(block('12.5 % 44.1 % 7 %', 100))?.type).toBe('UncategorizedText');
    expect(cls(block('   ', 100))).toBeUndefined();
    // Worded like a title but set like the body text: a label or a cell, not a heading.
    expect(cls(block('Quarterly Results', 100))?.type).toBe('UncategorizedText');
    expect(cls(block('Quarterly Results', 100, { size: 14 }))?.type).toBe('Title');
    expect(cls(block('Quarterly Results', 100, { font: 'bold' }), { bold: { bold: true, mono: false }, f: { bold: false, mono: false } })?.type).toBe('Title');
  });

  it('makes a short block in a larger font a title even when it reads like a sentence', () => {
    const sentence = 'We train a dense retriever';
    expect(cls(block(sentence, 100))?.type).toBe('NarrativeText');
    expect(cls(block(sentence, 100, { size: 14 }))?.type).toBe('Title');
  });

  it('takes a numbered heading in a heading font for a Title, not a list item', () => {
    expect(cls(block('1. Introduction', 100, { size: 14 }))).toMatchObject({ type: 'Title', heading: { depth: 0 } });
    expect(cls(block('2.1.6 Error handling', 100, { size: 12 }))).toMatchObject({ type: 'Title', heading: { depth: 2 } });
  });

  it('treats prose in scripts written without spaces as narrative text', () => {
    expect(classifyBlockText(block('電線接続端子部が次のいずれにも該当しないとき。', 100, { lineCount: 4 }))?.type).toBe('NarrativeText');
  });

  it('leaves to the caller, without the tagger, exactly the blocks whose type the tagger decides', () => {
    const texts = ['We train a dense retriever', 'The company increased its revenue in every region this year, as planned.'];
    for (const t of texts) {
      expect(classifyBlockText(block(t, 100), { tagger: false }), t).toBeUndefined();
      expect(classifyBlockText(block(t, 100))?.type, t).toBe('NarrativeText');
    }
    const decided = [
      '• Apples and pears',
      'Quarterly Results',
      '12.5 % 44.1 % 7 %',
      'It rained all day. The roads were closed for hours.',
      '電線接続端子部が次のいずれにも該当しないとき。',
    ];
    for (const t of decided) expect(classifyBlockText(block(t, 100), { tagger: false }), t).toEqual(classifyBlockText(block(t, 100)));
  });

  it('finds the body font size by characters of paragraph text', () => {
    const labels = Array.from({ length: 30 }, (_, i) => block(`Label ${i}`, 10 * i, { size: 6 }));
    const pages = [page(1, [block('Big', 10, { size: 20 }), ...labels, block('body text '.repeat(20), 100, { size: 10, lineCount: 2 })])];
    expect(headingContext(pages).bodySize).toBe(10);
  });
});

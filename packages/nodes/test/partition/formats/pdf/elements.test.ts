import { describe, expect, it } from 'vitest';
import { coordinatesFor, elementsFromLayouts } from '../../../../src/partition/formats/pdf/elements.js';
import type { PageLayout, TextBlock } from '../../../../src/partition/formats/pdf/layout-types.js';

const page = { width: 612, height: 792 };

describe('coordinatesFor', () => {
  it('gives PixelSpace points top-left, bottom-left, bottom-right, top-right at the given resolution', () => {
    expect(coordinatesFor({ x0: 72, y0: 100, x1: 144, y1: 112 }, page, 72)).toEqual({
      points: [
        [72, 100],
        [72, 112],
        [144, 112],
        [144, 100],
      ],
      system: 'PixelSpace',
      layout_width: 612,
      layout_height: 792,
    });
    const hi = coordinatesFor({ x0: 72, y0: 72, x1: 144, y1: 900 }, page, 200);
    expect(hi.points[0]).toEqual([200, 200]);
    // Clipped to the page.
    expect(hi.points[2]).toEqual([400, 2200]);
    expect([hi.layout_width, hi.layout_height]).toEqual([1700, 2200]);
  });
});

describe('elementsFromLayouts', () => {
  const block = (text: string, y0: number, extra: Partial<TextBlock> = {}): TextBlock => ({
    kind: 'text',
    text,
    box: { x0: 72, y0, x1: 400, y1: y0 + 12 },
    lineCount: 1,
    size: 10,
    font: 'f',
    ...extra,
  });
  const layout = (n: number, blocks: TextBlock[]): PageLayout => ({ pageNumber: n, ...page, blocks, textChars: 100, badChars: 0 });

  it('skips unreadable pages and puts page breaks only between pages that were read', () => {
    const built = elementsFromLayouts(
      [
        layout(1, [block('The first page has a sentence that is narrative.', 300)]),
        undefined,
        layout(3, [block('The third page has one too, as it happens.', 300)]),
      ],
      { includePageBreaks: true, coordinates: false, dpi: 72, inferTableStructure: false },
    );
    expect(built.map((b) => [b.element.type, b.element.metadata.page_number])).toEqual([
      ['NarrativeText', 1],
      ['PageBreak', undefined],
      ['NarrativeText', 3],
    ]);
  });

  it('gives tables their HTML only when asked', () => {
    const cell = (text: string, colspan = 1) => ({ text, colspan, rowspan: 1 });
    const table = block('h a 1 b 2', 300, { kind: 'table', table: { rows: [[cell('h', 2)], [cell('a'), cell('1')], [cell('b'), cell('2')]] } });
    const withHtml = elementsFromLayouts([layout(1, [table])], { includePageBreaks: false, coordinates: false, dpi: 200, inferTableStructure: true });
    expect(withHtml[0]!.element.metadata.text_as_html).toBe(
      '<table><tr><td colspan="2">h</td></tr><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>',
    );
    const without = elementsFromLayouts([layout(1, [table])], { includePageBreaks: false, coordinates: false, dpi: 200, inferTableStructure: false });
    expect(without[0]!.element.metadata.text_as_html).toBeUndefined();
  });
});

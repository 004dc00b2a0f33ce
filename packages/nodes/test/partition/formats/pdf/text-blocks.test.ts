import { describe, expect, it } from 'vitest';
import { joinLineTexts, tableFont } from '../../../../src/partition/formats/pdf/text-blocks.js';

describe('joinLineTexts', () => {
  it('joins hyphenated words, keeps compound hyphens and joins CJK without spaces', () => {
    expect(joinLineTexts(['relies on ef-', 'ficient retrieval'])).toBe('relies on efficient retrieval');
    expect(joinLineTexts(['a strong Lucene-', 'BM25 system'])).toBe('a strong Lucene-BM25 system');
    expect(joinLineTexts(['soft\u00AD', 'hyphen'])).toBe('softhyphen');
    expect(joinLineTexts(['a dash -', 'then'])).toBe('a dash - then');
    expect(joinLineTexts(['電線接続', '端子部'])).toBe('電線接続端子部');
    expect(joinLineTexts(['한국어', '문장'])).toBe('한국어 문장');
  });
});

describe('tableFont', () => {
  const line = (font: string, size: number, text: string) => ({ font, size, text });
  it("is the data cells' font, not the header row's or the row labels'", () => {
    // Long bold row labels beside short regular figures (the ICDAR dev set's eu-004): most cells are figures.
    const rows = ['United Kingdom', 'Netherlands', 'Luxembourg', 'Belgium', 'Portugal'].flatMap((name) => [
      line('bold', 11, name),
      line('regular', 11, '20.3'),
      line('regular', 11, '58.7'),
    ]);
    expect(tableFont([line('bold', 11, 'Member state and region'), line('bold', 11, 'GNP'), line('bold', 11, 'Population'), ...rows])).toBe('regular');
    // Larger bold labels beside smaller values (Docling's right_to_left_03): the smallest size is the data.
    const form = [line('bold', 14, 'Date of filing'), line('regular', 12, '2024-12-09'), line('bold', 14, 'Meeting number'), line('regular', 12, '436')];
    expect(tableFont(form)).toBe('regular');
    // A few footnote marks set smaller do not count as the data.
    expect(tableFont([...rows, line('tiny', 6, '*')])).toBe('regular');
  });
});

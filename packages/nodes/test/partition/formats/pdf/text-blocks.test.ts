import { describe, expect, it } from 'vitest';
import { joinLineTexts } from '../../../../src/partition/formats/pdf/text-blocks.js';

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

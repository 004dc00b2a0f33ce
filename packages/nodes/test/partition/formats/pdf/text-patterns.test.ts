import { describe, expect, it } from 'vitest';
import { BULLET_START_RE, CJK_CHAR_RE, NUMBERED_START_RE, SENTENCE_END_RE, stripBullet } from '../../../../src/partition/formats/pdf/text-patterns.js';

describe('pdf text patterns', () => {
  it('tells list markers from text that merely starts with a dash or a number', () => {
    for (const t of ['• item', '\uF0B7 Symbol bullet', '▪ square', '- dash item', '* star item', '– en dash item'])
      expect(BULLET_START_RE.test(t), t).toBe(true);
    for (const t of ['-5 dB', '*emphasis*', 'Plain text']) expect(BULLET_START_RE.test(t), t).toBe(false);
    expect(NUMBERED_START_RE.test('2. Second step')).toBe(true);
    expect(NUMBERED_START_RE.test('3.1 Overview')).toBe(false);
    expect(stripBullet('•  item text')).toBe('item text');
  });

  it('finds sentence ends and scripts written without spaces', () => {
    expect(SENTENCE_END_RE.test('It ended.”')).toBe(true);
    expect(SENTENCE_END_RE.test('It goes on,')).toBe(false);
    expect(CJK_CHAR_RE.test('漢')).toBe(true);
    expect(CJK_CHAR_RE.test('ア')).toBe(true);
    expect(CJK_CHAR_RE.test('한')).toBe(false);
  });
});

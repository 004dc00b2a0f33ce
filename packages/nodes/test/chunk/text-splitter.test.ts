import { describe, expect, it } from 'vitest';
import { TextSplitter } from '../../src/chunk/text-splitter.js';

describe('TextSplitter', () => {
  // Expected pieces computed with the reference library's _TextSplitter algorithm.
  it.each([
    ["'Lorem ipsum dolor' means 'Thank you very much'.", 20, 5, ["'Lorem ipsum dolor'", "lor' means 'Thank", "hank you very much'."]],
    [
      'The quick brown fox jumps over the lazy dog and keeps running far away',
      25,
      8,
      ['The quick brown fox jumps', 'x jumps over the lazy dog', 'azy dog and keeps running', 'running far away'],
    ],
    ['abc def\nghi jkl mno\npqr stu vwx yz', 12, 0, ['abc def', 'ghi jkl mno', 'pqr stu vwx', 'yz']],
    ['abc def\nghi jkl mno\npqr stu vwx yz', 12, 4, ['abc def', 'def ghi jkl', 'jkl mno', 'mno pqr stu', 'stu vwx yz']],
    [
      'word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word ',
      17,
      6,
      [
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word word',
        'word word ',
      ],
    ],
    [
      'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      10,
      3,
      ['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxxxxx'],
    ],
    ['a    b    c    d    e    f    g', 6, 2, ['a    b', 'b c', 'c d', 'd e', 'e f', 'f g']],
    ['short', 10, 2, ['short']],
    ['aaaa bbbb', 4, 0, ['aaaa', 'bbbb']],
  ] as Array<[string, number, number, string[]]>)('splits %j at max %i overlap %i', (text, max, overlap, expected) => {
    expect(new TextSplitter(max, overlap).pieces(text)).toEqual(expected);
  });

  it('cuts at the right-most space within the window (reference case)', () => {
    const text = 'Lorem ipsum dolor sit amet consectetur adipiscing elit. In rhoncus ipsum sed lectus porta volutpat.';
    expect(new TextSplitter(64, 0).pieces(text)).toEqual([
      'Lorem ipsum dolor sit amet consectetur adipiscing elit. In',
      'rhoncus ipsum sed lectus porta volutpat.',
    ]);
  });

  it('falls back to a hard cut and restarts overlap characters back (reference case)', () => {
    const text = 'Loremipsumdolorametconsecteturadipiscingelit. In rhoncus ipsum sed lectus porta.';
    expect(new TextSplitter(30, 10).pieces(text)).toEqual([
      'Loremipsumdolorametconsectetur',
      'onsecteturadipiscingelit. In',
      'gelit. In rhoncus ipsum sed',
      'ipsum sed lectus porta.',
    ]);
  });

  it('refuses a window that could never advance', () => {
    expect(() => new TextSplitter(10, 10)).toThrow(/overlap < maxlen/);
    expect(() => new TextSplitter(0, 0)).toThrow(/maxlen > 0/);
  });

  it('split() returns the piece and the materialised remainder', () => {
    expect(new TextSplitter(10, 0).split('hello world again')).toEqual(['hello', 'world again']);
    expect(new TextSplitter(10, 0).split('short')).toEqual(['short', '']);
  });

  it('splits a long text into window-sized pieces that lose no words', () => {
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i % 977}`);
    const text = words.join(' ');
    const pieces = new TextSplitter(500, 0).pieces(text);
    expect(pieces.length).toBeGreaterThan(1000);
    expect(pieces.slice(0, -1).every((p) => p.length <= 500 && p.length > 490)).toBe(true);
    expect((pieces.at(-1) as string).length).toBeLessThanOrEqual(500);
    expect(pieces.join(' ')).toBe(text);
  });
});

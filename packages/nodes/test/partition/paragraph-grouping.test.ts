import { describe, expect, it } from 'vitest';
import { autoParagraphGrouper, groupBrokenParagraphs, splitByParagraph } from '../../src/partition/paragraph-grouping.js';

describe('groupBrokenParagraphs', () => {
  it('joins lines inside a paragraph and separates paragraphs by a blank line', () => {
    expect(groupBrokenParagraphs('The big red fox\nis walking down the lane.\n\nAt the end of the lane\nthe fox met a bear.')).toBe(
      'The big red fox is walking down the lane.\n\nAt the end of the lane the fox met a bear.',
    );
  });

  it('keeps short lines apart', () => {
    expect(groupBrokenParagraphs('Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/')).toBe(
      'Apache License\n\nVersion 2.0, January 2004\n\nhttp://www.apache.org/licenses/',
    );
  });

  it('gives each bullet of a bulleted paragraph its own paragraph, joining its lines', () => {
    expect(groupBrokenParagraphs('○ The big red fox\nis walking down the lane.\n○ At the end of the lane\nthe fox met a bear.')).toBe(
      '○ The big red fox is walking down the lane.\n\n○ At the end of the lane the fox met a bear.',
    );
    expect(groupBrokenParagraphs('- first item has words\n- second item with a well-known word')).toBe(
      '- first item has words\n\n- second item with a well-known word',
    );
  });

  it('reads an OCR "e" at a line start as a bullet', () => {
    expect(groupBrokenParagraphs('e first point here\ne second point here')).toBe('· first point here\n\n· second point here');
  });
});

describe('autoParagraphGrouper', () => {
  it('uses one paragraph per line when blank lines are rare', () => {
    const text = Array.from({ length: 20 }, (_, i) => `This is line number ${i} of a long document.`).join('\n');
    expect(autoParagraphGrouper(text).split('\n\n')).toHaveLength(20);
  });

  it('groups by blank lines when they are common', () => {
    expect(
      autoParagraphGrouper('A long line that goes on\nand on across lines.\n\nNext paragraph starts right here\nand it ends here.\n').split('\n\n'),
    ).toHaveLength(2);
  });
});

describe('splitByParagraph', () => {
  it('splits on line breaks and caps paragraph length between sentences', () => {
    expect(splitByParagraph('one\n\n two \ntwo and a half')).toEqual(['one', 'two', 'two and a half']);
    const long = 'Every sentence here is exactly like the others. '.repeat(10).trim();
    const parts = splitByParagraph(long, 100);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(100);
    expect(parts.join(' ')).toBe(long);
  });

  it('splits an over-long sentence between words', () => {
    const sentence = `${'word '.repeat(90).trim()}.`;
    const parts = splitByParagraph(sentence, 100);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join(' ')).toBe(sentence);
  });
});

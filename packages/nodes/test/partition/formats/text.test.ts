import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeTextChunks } from '../../../src/partition/formats/shared/decode-text.js';
import { partitionPlainText, partitionPlainTextChunks, textPartitioner } from '../../../src/partition/formats/text.js';
import { autoParagraphGrouper, splitByParagraph } from '../../../src/partition/paragraph-grouping.js';
import { classifyText, isEmptyBullet } from '../../../src/partition/text-classify.js';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { formatOptions, utf8 } from '../format-options.js';
import { corpusBytes, expectedElements, hasCorpus, tokenF1, typeAgreement } from '../reference-metrics.js';

const types = (text: string) => partitionPlainText(text).map((e) => [e.type, e.text]);

describe('partitionPlainText', () => {
  it('classifies a title and a narrative paragraph separated by a blank line', () => {
    expect(types('CHAPTER I\n\nThe fox jumped over the fence and ran into the woods. It was never seen again.\n')).toEqual([
      ['Title', 'CHAPTER I'],
      ['NarrativeText', 'The fox jumped over the fence and ran into the woods. It was never seen again.'],
    ]);
  });

  it('joins lines broken for layout inside a paragraph', () => {
    const text = 'The big red fox\nis walking down the lane and\nlooking for food.\n\nAt the end of the lane\nthe fox met a friendly bear.\n';
    expect(types(text)).toEqual([
      ['NarrativeText', 'The big red fox is walking down the lane and looking for food.'],
      ['NarrativeText', 'At the end of the lane the fox met a friendly bear.'],
    ]);
  });

  it('keeps blocks of short lines as separate lines', () => {
    expect(types('Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/\n\nSome more text is written here.\n').map((t) => t[1])).toEqual([
      'Apache License',
      'Version 2.0, January 2004',
      'http://www.apache.org/licenses/',
      'Some more text is written here.',
    ]);
  });

  it('turns bulleted and numbered lines into list items, removing the bullet only', () => {
    const text = 'Shopping list:\n\n• Apples are sweet and red\n• Bread is baked fresh daily\n\n- The dog needs food\n\n1. Buy the milk today\n';
    expect(types(text)).toEqual([
      ['Title', 'Shopping list:'],
      ['ListItem', 'Apples are sweet and red'],
      ['ListItem', 'Bread is baked fresh daily'],
      ['ListItem', 'The dog needs food'],
      ['ListItem', '1. Buy the milk today'],
    ]);
  });

  it('does not split hyphenated words inside a bulleted paragraph', () => {
    expect(types('• A well-known fact is stated here\n').map((t) => t[1])).toEqual(['A well-known fact is stated here']);
  });

  it('recognizes e-mail addresses and US city/state/zip lines', () => {
    expect(types('Contact Information\n\njane.doe@example.com\n\nDoylestown, PA 18901\n')).toEqual([
      ['Title', 'Contact Information'],
      ['EmailAddress', 'jane.doe@example.com'],
      ['Address', 'Doylestown, PA 18901'],
    ]);
  });

  it('gives UncategorizedText to text that is neither narrative nor a title', () => {
    expect(types('------\n\nThe cat sat on the mat and purred loudly.\n')[0]).toEqual(['UncategorizedText', '------']);
  });

  it('splits a paragraph longer than 1500 characters between sentences', () => {
    const sentence = 'This sentence has exactly enough words to be counted as a normal English sentence. ';
    const paragraph = sentence.repeat(40).trim();
    const out = partitionPlainText(`${paragraph}\n\nShort closing line is here.\n`);
    expect(out.length).toBeGreaterThan(2);
    for (const el of out) expect(el.text.length).toBeLessThanOrEqual(1500);
    expect(
      out
        .slice(0, -1)
        .map((e) => e.text)
        .join(' '),
    ).toBe(paragraph);
  });

  it('treats a document with few blank lines as one paragraph per line', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `Line number ${i + 1} says the quick brown fox jumps.`);
    expect(partitionPlainText(lines.join('\n'))).toHaveLength(12);
  });

  it('stays fast on a very long run of spaces', () => {
    const out = partitionPlainText(`The start of the text is here.${' '.repeat(200_000)}And the end of it follows after the gap.`);
    expect(out.map((e) => e.text)).toEqual(['The start of the text is here. And the end of it follows after the gap.']);
  });

  it('returns no elements for whitespace-only text and skips lone bullets', () => {
    expect(partitionPlainText('  \n\n \t')).toEqual([]);
    expect(types('•\n\nThe cat sat on the mat and purred.\n')).toEqual([['NarrativeText', 'The cat sat on the mat and purred.']]);
  });
});

/** The whole-text pipeline the chunked one must reproduce: normalize, group, split, classify. */
function wholeText(text: string): string[][] {
  const normalized = text.replace(/\r\n?/gu, '\n').replace(/[^\S\n]{101,}/gu, ' ');
  if (!normalized.trim()) return [];
  return splitByParagraph(autoParagraphGrouper(normalized))
    .map((p) => p.trim())
    .filter((p) => p && !isEmptyBullet(p))
    .map((p) => {
      const c = classifyText(p);
      return [c.type, c.text];
    });
}

/** A text of `paragraphs` paragraphs, every `blankEvery`-th line break doubled, with CRLFs, bullets, padding and long runs of blank lines. */
function mixedText(paragraphs: number, blankEvery: number): string {
  const pieces = [
    'The committee met on Tuesday\r\nand agreed on the budget for next year.',
    'SECTION 4',
    '\u2022 first item of a bulleted list\n\u2022 second item, well-known',
    `Padding${' '.repeat(150)}inside a line, and tabs\t\there.`,
    'Short line\nAnother short\nThird one',
    'A sentence that is rather long. '.repeat(60),
  ];
  let out = '';
  for (let i = 0; i < paragraphs; i++) {
    out += pieces[i % pieces.length]!;
    out += i % blankEvery === 0 ? (i % 7 === 0 ? '\n \n\t\n\n  ' : '\r\n\r\n') : '\n';
  }
  return out;
}

/** `text` cut every `size` characters. */
function cutEvery(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

describe('partitionPlainTextChunks', () => {
  // Over 2000 lines, so that pieces are grouped before the text ends.
  for (const [name, blankEvery] of [
    ['one paragraph per line', 50],
    ['paragraphs separated by blank lines', 2],
  ] as const) {
    it(`groups text read in pieces as it groups it whole: ${name}`, () => {
      const text = mixedText(2400, blankEvery);
      const expected = wholeText(text);
      expect(text.split('\n').length).toBeGreaterThan(2000);
      const types = (els: ReturnType<typeof partitionPlainText>) => els.map((e) => [e.type, e.text]);
      expect(types(partitionPlainText(text))).toEqual(expected);
      for (const size of [997, 65_536]) expect(types(partitionPlainTextChunks(cutEvery(text, size)))).toEqual(expected);
      // A CRLF split between two pieces is one line break.
      const crlfCut = text.indexOf('\r\n') + 1;
      expect(types(partitionPlainTextChunks([text.slice(0, crlfCut), text.slice(crlfCut)]))).toEqual(expected);
    });
  }

  it('decodes a character split between two pieces of bytes whole', () => {
    const bytes = new TextEncoder().encode('é'.repeat(3 * 2 ** 20));
    const chunks = [...decodeTextChunks(bytes, 'utf-8')];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe('é'.repeat(3 * 2 ** 20));
  });
});

describe('textPartitioner decoding', () => {
  it('decodes windows-1252 when asked', async () => {
    const bytes = iconv.encode('Café crème costs 5 € at the café down the street.', 'windows-1252');
    const out = await textPartitioner.partition(bytes, formatOptions({ encoding: 'windows-1252' }));
    expect(out[0]!.text).toBe('Café crème costs 5 € at the café down the street.');
  });

  it('falls back to windows-1252 when utf-8 bytes are invalid', async () => {
    const bytes = iconv.encode('The naïve café served crème brûlée.', 'windows-1252');
    const out = await textPartitioner.partition(bytes, formatOptions());
    expect(out[0]!.text).toBe('The naïve café served crème brûlée.');
  });

  it('honours a UTF-16 byte-order mark over the encoding setting', async () => {
    const body = iconv.encode('Hello world, this text is in UTF-16.', 'utf-16le');
    const bytes = new Uint8Array([0xff, 0xfe, ...body]);
    const out = await textPartitioner.partition(bytes, formatOptions({ encoding: 'windows-1252' }));
    expect(out[0]!.text).toBe('Hello world, this text is in UTF-16.');
  });

  it('strips a UTF-8 byte-order mark', async () => {
    const out = await textPartitioner.partition(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Plain words here')]), formatOptions());
    expect(out[0]!.text).toBe('Plain words here');
  });
});

describe.skipIf(!hasCorpus)('text corpus documents (skipped without /work/shared/corpus)', () => {
  it('book-war-and-peace-1p.txt matches the reference element for element, ids included', async () => {
    const expected = expectedElements('book-war-and-peace-1p.txt');
    const got = await partitionFile(corpusBytes('book-war-and-peace-1p.txt'), { filename: 'book-war-and-peace-1p.txt', unique_element_ids: false });
    expect(got.map((e) => [e.type, e.text])).toEqual(expected.map((e) => [e.type, e.text]));
    expect(got.map((e) => e.element_id)).toEqual(expected.map((e) => e.element_id));
    expect(got.every((e) => e.metadata.filetype === 'text/plain' && e.metadata.languages?.join() === 'eng')).toBe(true);
  });

  it('UDHR_first_article_all.txt reaches token F1 >= 0.95 and type agreement >= 0.9', async () => {
    const expected = expectedElements('UDHR_first_article_all.txt');
    const got = await partitionFile(corpusBytes('UDHR_first_article_all.txt'), { filename: 'UDHR_first_article_all.txt' });
    const f1 = tokenF1(got, expected);
    const agreement = typeAgreement(got, expected);
    console.log(`UDHR_first_article_all.txt: F1 ${f1.toFixed(4)}, type agreement ${agreement.toFixed(4)} (${got.length}/${expected.length} elements)`);
    expect(f1).toBeGreaterThanOrEqual(0.95);
    expect(agreement).toBeGreaterThanOrEqual(0.9);
  });
});

import { describe, expect, it } from 'vitest';
import { countWordsWithoutPunctuation, removePunctuation, sentTokenize, wordTokenize } from '../../src/partition/text-tokenize.js';

describe('sentTokenize', () => {
  it('splits at sentence-final punctuation followed by space', () => {
    expect(sentTokenize('It rained. Then it stopped! Did it? Yes.')).toEqual(['It rained.', 'Then it stopped!', 'Did it?', 'Yes.']);
  });

  it('keeps abbreviations, initials and decimals inside a sentence', () => {
    expect(sentTokenize('Mr. Smith paid $12.50 to J. Doe in St. Petersburg. He left.')).toEqual([
      'Mr. Smith paid $12.50 to J. Doe in St. Petersburg.',
      'He left.',
    ]);
    expect(sentTokenize('Galaxy Gaming, Inc. is based in Nevada.')).toEqual(['Galaxy Gaming, Inc. is based in Nevada.']);
  });

  it('includes closing quotes with the sentence', () => {
    expect(sentTokenize('"Well, Prince," he said. "I warn you." She smiled.')).toEqual(['"Well, Prince," he said.', '"I warn you."', 'She smiled.']);
  });

  it('does not split at non-Latin sentence marks', () => {
    expect(sentTokenize('人人生而自由。他们赋有理性。')).toHaveLength(1);
  });
});

describe('wordTokenize', () => {
  it('splits punctuation, brackets and contractions off words', () => {
    expect(wordTokenize('ITEM 1. Financial Statements (Unaudited)')).toEqual(['ITEM', '1', '.', 'Financial', 'Statements', '(', 'Unaudited', ')']);
    expect(wordTokenize("I don't know, do you?")).toEqual(['I', 'do', "n't", 'know', ',', 'do', 'you', '?']);
  });

  it('keeps a period inside the sentence on its word and splits the final one', () => {
    expect(wordTokenize('Galaxy Gaming, Inc. is in Nevada.')).toEqual(['Galaxy', 'Gaming', ',', 'Inc.', 'is', 'in', 'Nevada', '.']);
  });

  it('keeps numbers with thousands separators whole', () => {
    expect(wordTokenize('It cost 1,234 dollars')).toEqual(['It', 'cost', '1,234', 'dollars']);
  });
});

describe('removePunctuation', () => {
  it('removes every Unicode punctuation character', () => {
    expect(removePunctuation('«Hello», world!—ok…')).toBe('Hello worldok');
  });
});

describe('countWordsWithoutPunctuation', () => {
  const tokenized = (text: string): number => wordTokenize(removePunctuation(text)).filter((w) => w !== '.').length;

  it('counts the tokens of the text without punctuation', () => {
    expect(countWordsWithoutPunctuation("I don't know, do you?")).toBe(5);
    expect(countWordsWithoutPunctuation('It cost $12.50 (<a>) ``quoted`` ` x')).toBe(tokenized('It cost $12.50 (<a>) ``quoted`` ` x'));
    expect(countWordsWithoutPunctuation('  \u3000\n ')).toBe(0);
  });

  it('splits at exactly the characters a regular expression calls white space', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      const text = `a${ch}b`;
      expect(countWordsWithoutPunctuation(text), `U+${c.toString(16)}`).toBe(tokenized(text));
    }
  });

  it('agrees with tokenizing on random text of the characters that matter', () => {
    const alphabet = [
      'a',
      'B',
      '1',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u2009',
      '$',
      '<',
      '>',
      '`',
      "'",
      '’',
      '"',
      '.',
      '...',
      ',',
      ':',
      '-',
      '--',
      '(',
      ')',
      '[',
      '{',
      '!',
      '?',
      ';',
      '@',
      '#',
      '%',
      '&',
      '«',
      '😀',
      '\ud800',
      'n',
      't',
      '_',
      '+',
      '=',
      '|',
      '~',
      '^',
      '\\',
      '/',
      '*',
    ];
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = next(16);
      for (let j = 0; j < length; j++) text += alphabet[next(alphabet.length)];
      expect(countWordsWithoutPunctuation(text), JSON.stringify(text)).toBe(tokenized(text));
    }
  });
});

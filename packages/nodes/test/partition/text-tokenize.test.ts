import { describe, expect, it } from 'vitest';
import { removePunctuation, sentTokenize, wordTokenize } from '../../src/partition/text-tokenize.js';

describe('sentTokenize', () => {
  it('splits at sentence-final punctuation followed by space', () => {
    expect(sentTokenize('It rained. Then it stopped! Did it? Yes.')).toEqual(['It rained.', 'Then it stopped!', 'Did it?', 'Yes.']);
  });

  it('keeps abbreviations, initials and decimals inside a sentence', () => {
    expect(sentTokenize('Mr. Smith paid $12.50 to J. Doe in St. Petersburg. He left.')).toEqual(['Mr. Smith paid $12.50 to J. Doe in St. Petersburg.', 'He left.']);
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
    expect(wordTokenize("ITEM 1. Financial Statements (Unaudited)")).toEqual(['ITEM', '1', '.', 'Financial', 'Statements', '(', 'Unaudited', ')']);
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

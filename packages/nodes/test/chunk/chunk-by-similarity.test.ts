import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { chunkBySimilarity, cosineSimilarity } from '../../src/chunk/index.js';
import { el, texts } from './helpers.js';

// Deterministic bag-of-words embedding over a small vocabulary.
const VOCAB = ['cat', 'cats', 'kitten', 'purr', 'dog', 'dogs', 'puppy', 'bark', 'stock', 'market', 'shares', 'price'];
function bagOfWords(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return VOCAB.map((v) => words.filter((w) => w === v).length);
}
const calls: string[][] = [];
const embed = async (t: string[]) => {
  calls.push(t);
  return t.map(bagOfWords);
};

const doc = () => [
  el('Title', 'Cats purr'),
  el('NarrativeText', 'A kitten will purr; cats purr too.'),
  el('NarrativeText', 'Dogs bark and a puppy will bark.'),
  el('PageBreak', ''),
  el('NarrativeText', 'The dog and the puppy bark.'),
  el('NarrativeText', 'Stock market price and shares.'),
  el('Table', 'Price table'),
  el('NarrativeText', 'Shares price in the stock market.'),
];

describe('chunkBySimilarity', () => {
  it('joins consecutive similar elements and separates dissimilar ones', async () => {
    calls.length = 0;
    const chunks = await chunkBySimilarity(doc(), { similarity_threshold: 0.5, embed });
    expect(texts(chunks)).toEqual([
      'Cats purr\n\nA kitten will purr; cats purr too.',
      'Dogs bark and a puppy will bark.\n\nThe dog and the puppy bark.',
      'Stock market price and shares.',
      'Price table',
      'Shares price in the stock market.',
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(6);
  });

  it('with do_not_break_similarity_on_footer_header, lets a passage run past a footer and a header', async () => {
    const pages = () => [
      el('NarrativeText', 'Cats purr when a kitten is near.'),
      el('Footer', 'Stock market shares'),
      el('Header', 'Dogs bark'),
      el('NarrativeText', 'A kitten and cats purr all day.'),
    ];
    expect(texts(await chunkBySimilarity(pages(), { similarity_threshold: 0.5, embed }))).toHaveLength(4);
    const joined = await chunkBySimilarity(pages(), { similarity_threshold: 0.5, embed, do_not_break_similarity_on_footer_header: true });
    expect(texts(joined)).toEqual(['Cats purr when a kitten is near.\n\nStock market shares\n\nDogs bark\n\nA kitten and cats purr all day.']);
  });

  it('never exceeds max_characters even for similar elements', async () => {
    const similar = Array.from({ length: 6 }, () => el('NarrativeText', 'cats purr and cats purr again'));
    const chunks = await chunkBySimilarity(similar, { similarity_threshold: 0.9, max_characters: 70, embed });
    expect(chunks.length).toBe(3);
    expect(chunks.every((c) => c.text.length <= 70)).toBe(true);
  });

  it('puts every element alone with a threshold no pair reaches', async () => {
    const chunks = await chunkBySimilarity(doc().slice(0, 3), { similarity_threshold: 0.99, embed });
    expect(chunks).toHaveLength(3);
  });

  it('rejects a bad threshold and a bad embed result', async () => {
    await expect(chunkBySimilarity(doc(), { similarity_threshold: 1.5, embed })).rejects.toMatchObject({ code: 'CHUNKING_OPTIONS_INVALID' });
    await expect(chunkBySimilarity(doc(), { embed: async () => [[1]] })).rejects.toBeInstanceOf(QuarryError);
  });

  it('computes cosine similarity', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [2, 2])).toBeCloseTo(1);
  });
});

import { describe, expect, it } from 'vitest';
import { compositeChunks } from '../../src/chunk/composite-chunker.js';
import { chunkingOptions } from '../../src/chunk/options.js';
import { PreChunk } from '../../src/chunk/pre-chunk.js';
import { TextSplitter } from '../../src/chunk/text-splitter.js';
import { el } from './helpers.js';

const ctx = (input: Parameters<typeof chunkingOptions>[1]) => {
  const opts = chunkingOptions('basic', input);
  return { opts, splitter: new TextSplitter(opts.max_characters, opts.overlap) };
};

describe('compositeChunks', () => {
  it('forms one CompositeElement with consolidated metadata', () => {
    const pc = PreChunk.of([el('Title', 'T', { page_number: 3, languages: ['eng'] }), el('NarrativeText', 'body', { page_number: 4, languages: ['deu'] })], '');
    const [chunk, ...rest] = compositeChunks(pc, ctx({ include_orig_elements: false }));
    expect(rest).toEqual([]);
    expect(chunk).toMatchObject({ type: 'CompositeElement', text: 'T\n\nbody', metadata: { page_number: 3, languages: ['eng', 'deu'] } });
    expect(chunk?.metadata.orig_elements).toBeUndefined();
  });

  it('gives continuation chunks their own metadata object with is_continuation', () => {
    const pc = PreChunk.of([el('NarrativeText', 'one two three four five six', { filename: 'f' })], '');
    const chunks = compositeChunks(pc, ctx({ max_characters: 10 }));
    expect(chunks.map((c) => c.text)).toEqual(['one two', 'three four', 'five six']);
    expect(chunks[0]?.metadata.is_continuation).toBeUndefined();
    expect(chunks[1]?.metadata).not.toBe(chunks[0]?.metadata);
    expect(chunks[1]?.metadata).toMatchObject({ filename: 'f', is_continuation: true });
  });

  it('gives nothing for a pre-chunk without text', () => {
    expect(compositeChunks(PreChunk.of([el('PageBreak', '')], ''), ctx({}))).toEqual([]);
  });
});

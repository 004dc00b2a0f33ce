import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { chunkingOptions, resolveChunkingOptions, similarityThreshold } from '../../src/chunk/options.js';

function errorOf(fn: () => unknown): QuarryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuarryError);
    return e as QuarryError;
  }
  throw new Error('expected a throw');
}

describe('chunkingOptions (library semantics)', () => {
  it('applies the library defaults', () => {
    expect(chunkingOptions('basic')).toEqual({
      max_characters: 500,
      new_after_n_chars: 500,
      overlap: 0,
      overlap_all: false,
      combine_text_under_n_chars: 0,
      multipage_sections: true,
      include_orig_elements: true,
      isolate_table: true,
      repeat_table_headers: true,
      unique_element_ids: true,
    });
    expect(chunkingOptions('by_title', { max_characters: 300 }).combine_text_under_n_chars).toBe(300);
  });

  it('caps new_after_n_chars at max_characters and treats null as default', () => {
    expect(chunkingOptions('basic', { max_characters: 200, new_after_n_chars: 900 }).new_after_n_chars).toBe(200);
    expect(chunkingOptions('basic', { max_characters: 200, new_after_n_chars: null }).new_after_n_chars).toBe(200);
    expect(chunkingOptions('basic', { new_after_n_chars: 0 }).new_after_n_chars).toBe(0);
  });

  it('is idempotent on resolved options', () => {
    const once = chunkingOptions('by_title', { max_characters: 400, new_after_n_chars: 1000, combine_text_under_n_chars: 50 });
    expect(chunkingOptions('by_title', once)).toEqual(once);
  });

  it.each([
    [{ max_characters: 0 }, "'max_characters' argument must be > 0, got 0"],
    [{ max_characters: -42 }, "'max_characters' argument must be > 0, got -42"],
    [{ new_after_n_chars: -1 }, "'new_after_n_chars' argument must be >= 0, got -1"],
    [{ max_characters: 200, overlap: 300 }, "'overlap' argument must be less than `max_characters`, got 300 >= 200"],
  ])('rejects %o with the library message', (input, message) => {
    const e = errorOf(() => chunkingOptions('basic', input));
    expect(e.code).toBe('CHUNKING_OPTIONS_INVALID');
    expect(e.message).toBe(message);
  });

  it('validates combine_text_under_n_chars for by_title only', () => {
    expect(errorOf(() => chunkingOptions('by_title', { combine_text_under_n_chars: -1 })).message).toBe(
      "'combine_text_under_n_chars' argument must be >= 0, got -1",
    );
    expect(errorOf(() => chunkingOptions('by_title', { combine_text_under_n_chars: 600 })).message).toBe(
      "'combine_text_under_n_chars' argument must not exceed `max_characters` value, got 600 > 500",
    );
    expect(errorOf(() => chunkingOptions('by_title', { max_characters: 450, combine_text_under_n_chars: 600 })).message).toBe(
      "'combine_text_under_n_chars' argument must not exceed `max_characters` value, got 600 > 450",
    );
    expect(chunkingOptions('basic', { combine_text_under_n_chars: 600 }).combine_text_under_n_chars).toBe(0);
  });

  it('checks in the library order (max before overlap)', () => {
    expect(errorOf(() => chunkingOptions('basic', { max_characters: 0, overlap: 10 })).message).toMatch(/^'max_characters'/);
  });

  it('does not reject a negative overlap (the library keeps it)', () => {
    expect(chunkingOptions('basic', { overlap: -5 }).overlap).toBe(-5);
  });

  it('rejects non-integer and non-boolean values', () => {
    expect(errorOf(() => chunkingOptions('basic', { max_characters: 1.5 })).code).toBe('CHUNKING_OPTIONS_INVALID');
    expect(errorOf(() => chunkingOptions('basic', { overlap_all: 'yes' as unknown as boolean })).code).toBe('CHUNKING_OPTIONS_INVALID');
  });
});

describe('resolveChunkingOptions (node settings)', () => {
  it('uses the SPEC defaults for nodes', () => {
    const opts = resolveChunkingOptions('chunk_by_title', {});
    expect(opts.include_orig_elements).toBe(false);
    expect(opts.multipage_sections).toBe(false);
    expect(opts.max_characters).toBe(500);
    expect(opts.combine_text_under_n_chars).toBe(500);
  });

  it('maps null settings to defaults and keeps given ones', () => {
    const opts = resolveChunkingOptions('chunk_by_character', {
      max_characters: 1000,
      new_after_n_chars: null,
      overlap: 50,
      overlap_all: true,
      include_orig_elements: true,
      unstructured_api_url: null,
      contextual_chunking_strategy: null,
    });
    expect(opts).toMatchObject({ max_characters: 1000, new_after_n_chars: 1000, overlap: 50, overlap_all: true, include_orig_elements: true });
  });

  it('ignores by_title-only settings on other subtypes', () => {
    const opts = resolveChunkingOptions('chunk_by_page', { multipage_sections: false, combine_text_under_n_chars: 9999 });
    expect(opts.combine_text_under_n_chars).toBe(0);
  });

  it('resolves similarity_threshold for chunk_by_similarity', () => {
    expect(resolveChunkingOptions('chunk_by_similarity', {}).similarity_threshold).toBe(0.5);
    expect(resolveChunkingOptions('chunk_by_similarity', { similarity_threshold: 0.8 }).similarity_threshold).toBe(0.8);
    expect(errorOf(() => resolveChunkingOptions('chunk_by_similarity', { similarity_threshold: 1 })).code).toBe('CHUNKING_OPTIONS_INVALID');
    expect(() => similarityThreshold(0.001)).toThrow(/between 0.01 and 0.99/);
  });

  it("gives a plugin's chunker the basic options, and throws for invalid values", () => {
    expect(resolveChunkingOptions('chunk_by_magic', { combine_text_under_n_chars: 9 })).toEqual(resolveChunkingOptions('chunk_by_character', {}));
    expect(errorOf(() => resolveChunkingOptions('chunk_by_title', { max_characters: 100, overlap: 100 })).message).toBe(
      "'overlap' argument must be less than `max_characters`, got 100 >= 100",
    );
  });
});

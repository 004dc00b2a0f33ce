import { describe, expect, it } from 'vitest';
import { CHUNK_SETTING_KEYS, chunkByCharacterSettings, chunkByPageSettings, chunkBySimilaritySettings, chunkByTitleSettings } from '../../src/workflow/index.js';

describe('chunker settings schemas', () => {
  it('apply the platform node defaults and leave "default none" settings absent', () => {
    expect(chunkByTitleSettings.parse({})).toEqual({ unstructured_api_url: null, unstructured_api_key: null, include_orig_elements: false, overlap_all: false, multipage_sections: false });
    expect(chunkBySimilaritySettings.parse({ similarity_threshold: 0.5 }).similarity_threshold).toBe(0.5);
  });

  it('list which settings apply to which subtype (SPEC chunker table)', () => {
    const common = ['unstructured_api_url', 'unstructured_api_key', 'include_orig_elements', 'new_after_n_chars', 'max_characters', 'overlap', 'overlap_all', 'contextual_chunking_strategy'];
    expect(CHUNK_SETTING_KEYS).toEqual({
      chunk_by_character: common,
      chunk_by_title: [...common, 'multipage_sections', 'combine_text_under_n_chars'],
      chunk_by_page: common,
      chunk_by_similarity: [...common, 'similarity_threshold', 'embedding'],
    });
  });

  it('report the reference messages through zod too', () => {
    expect(chunkByCharacterSettings.safeParse({ max_characters: -1 }).error?.issues.map((i) => i.message)).toEqual(["'max_characters' argument must be > 0, got -1"]);
    expect(chunkByPageSettings.safeParse({ overlap: 10, max_characters: 10 }).error?.issues.map((i) => i.message)).toEqual([
      "'overlap' argument must be less than `max_characters`, got 10 >= 10",
    ]);
  });

  it('reject settings of another subtype', () => {
    expect(chunkByPageSettings.safeParse({ combine_text_under_n_chars: 5 }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});

import { describe, expect, it } from 'vitest';
import { settingKeysOf } from '@quarry/core';
import { chunkByCharacterNode, chunkByPageNode, chunkByTitleNode } from '../../src/index.js';
import { chunkByCharacterSettings } from '../../src/chunk/chunk-by-character.node.js';
import { chunkByPageSettings } from '../../src/chunk/chunk-by-page.node.js';
import { chunkBySimilarityNode, chunkBySimilarityNodeSettings as chunkBySimilaritySettings } from '../../src/chunk/chunk-by-similarity.node.js';
import { chunkByTitleSettings } from '../../src/chunk/chunk-by-title.node.js';

describe('chunker settings schemas', () => {
  it('apply the platform node defaults and leave "default none" settings absent', () => {
    expect(chunkByTitleSettings().parse({})).toEqual({
      unstructured_api_url: null,
      unstructured_api_key: null,
      include_orig_elements: false,
      overlap_all: false,
      multipage_sections: false,
    });
    expect(chunkBySimilaritySettings().parse({ similarity_threshold: 0.5 }).similarity_threshold).toBe(0.5);
  });

  it('list which settings apply to which subtype (SPEC chunker table)', () => {
    const common = [
      'unstructured_api_url',
      'unstructured_api_key',
      'include_orig_elements',
      'new_after_n_chars',
      'max_characters',
      'overlap',
      'overlap_all',
      'contextual_chunking_strategy',
    ];
    expect(settingKeysOf(chunkByCharacterNode)).toEqual(common);
    expect(settingKeysOf(chunkByTitleNode)).toEqual([...common, 'multipage_sections', 'combine_text_under_n_chars']);
    expect(settingKeysOf(chunkByPageNode)).toEqual(common);
    expect(settingKeysOf(chunkBySimilarityNode)).toEqual([...common, 'similarity_threshold', 'embedding']);
  });

  it('report the reference messages through zod too', () => {
    expect(
      chunkByCharacterSettings()
        .safeParse({ max_characters: -1 })
        .error?.issues.map((i) => i.message),
    ).toEqual(["'max_characters' argument must be > 0, got -1"]);
    expect(
      chunkByPageSettings()
        .safeParse({ overlap: 10, max_characters: 10 })
        .error?.issues.map((i) => i.message),
    ).toEqual(["'overlap' argument must be less than `max_characters`, got 10 >= 10"]);
  });

  it('reject settings of another subtype', () => {
    expect(chunkByPageSettings().safeParse({ combine_text_under_n_chars: 5 }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});

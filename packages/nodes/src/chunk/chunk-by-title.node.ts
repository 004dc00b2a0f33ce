import { lazySchema, optionalInt, zod } from '@quarry/core';
import type { z } from 'zod';
import { chunkByTitle } from './chunk-by-title.js';
import { chunkCommonShape, chunkerSettings } from './chunk-settings.js';
import { chunkerNode } from './chunker-node.js';

/** Settings of `chunk_by_title`: the common ones plus `multipage_sections` and `combine_text_under_n_chars`. */
export const chunkByTitleSettings = lazySchema(() =>
  chunkerSettings(
    'chunk_by_title',
    {
      ...chunkCommonShape(),
      multipage_sections: zod().boolean().default(false),
      combine_text_under_n_chars: optionalInt('combines elements of a section until it reaches this length; default none', 0),
    },
    { byTitle: true },
  ),
);
/** Parsed `chunk_by_title` settings. */
export type ChunkByTitleSettings = z.output<ReturnType<typeof chunkByTitleSettings>>;

/** `chunk_by_title`: sections start at titles (and pages unless multipage_sections). */
export const chunkByTitleNode = chunkerNode('chunk_by_title', chunkByTitleSettings, chunkByTitle, 'keeps sections together; small sections are combined', [
  'by_title',
]);

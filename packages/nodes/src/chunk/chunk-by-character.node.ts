import type { z } from 'zod';
import { chunkByCharacter } from './chunk-by-character.js';
import { CHUNK_COMMON_SHAPE, chunkerSettings } from './chunk-settings.js';
import { chunkerNode } from './chunker-node.js';

/** Settings of `chunk_by_character` (the library's `basic` strategy). */
export const chunkByCharacterSettings = chunkerSettings('chunk_by_character', CHUNK_COMMON_SHAPE);
/** Parsed `chunk_by_character` settings. */
export type ChunkByCharacterSettings = z.output<typeof chunkByCharacterSettings>;

/** `chunk_by_character`: the reference library's `basic` strategy. */
export const chunkByCharacterNode = chunkerNode(
  'chunk_by_character',
  chunkByCharacterSettings,
  chunkByCharacter,
  'fills chunks up to max_characters regardless of sections',
  ['basic'],
);

import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { chunkByCharacter } from './chunk-by-character.js';
import { chunkCommonShape, chunkerSettings } from './chunk-settings.js';
import { chunkerNode } from './chunker-node.js';

/** Settings of `chunk_by_character` (the library's `basic` strategy). */
export const chunkByCharacterSettings = lazySchema(() => chunkerSettings('chunk_by_character', chunkCommonShape()));
/** Parsed `chunk_by_character` settings. */
export type ChunkByCharacterSettings = z.output<ReturnType<typeof chunkByCharacterSettings>>;

/** `chunk_by_character`: `unstructured`'s `basic` strategy. */
export const chunkByCharacterNode = chunkerNode(
  'chunk_by_character',
  chunkByCharacterSettings,
  chunkByCharacter,
  'fills chunks up to max_characters regardless of sections',
  ['basic'],
);

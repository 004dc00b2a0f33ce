import type { z } from 'zod';
import { chunkByPage } from './chunk-by-page.js';
import { CHUNK_COMMON_SHAPE, chunkerSettings } from './chunk-settings.js';
import { chunkerNode } from './chunker-node.js';

/** Settings of `chunk_by_page`: the same as `chunk_by_character`. */
export const chunkByPageSettings = chunkerSettings('chunk_by_page', CHUNK_COMMON_SHAPE);
/** Parsed `chunk_by_page` settings. */
export type ChunkByPageSettings = z.output<typeof chunkByPageSettings>;

/** `chunk_by_page`: like chunk_by_character, but never mixes pages. */
export const chunkByPageNode = chunkerNode('chunk_by_page', chunkByPageSettings, chunkByPage, 'one page never shares a chunk with another', ['by_page']);

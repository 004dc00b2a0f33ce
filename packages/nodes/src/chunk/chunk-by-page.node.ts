import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { chunkByPage } from './chunk-by-page.js';
import { chunkCommonShape, chunkerSettings } from './chunk-settings.js';
import { chunkerNode } from './chunker-node.js';

/** Settings of `chunk_by_page`: the same as `chunk_by_character`. */
export const chunkByPageSettings = lazySchema(() => chunkerSettings('chunk_by_page', chunkCommonShape()));
/** Parsed `chunk_by_page` settings. */
export type ChunkByPageSettings = z.output<ReturnType<typeof chunkByPageSettings>>;

/** `chunk_by_page`: like chunk_by_character, but never mixes pages. */
export const chunkByPageNode = chunkerNode('chunk_by_page', chunkByPageSettings, chunkByPage, 'one page never shares a chunk with another', ['by_page']);

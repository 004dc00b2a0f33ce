import { chunkByPageSettings } from '@quarry/core';
import { chunkByPage } from './chunk-by-page.js';
import { chunkerNode } from './chunker-node.js';

/** `chunk_by_page`: like chunk_by_character, but never mixes pages. */
export const chunkByPageNode = chunkerNode('chunk_by_page', chunkByPageSettings, chunkByPage, 'one page never shares a chunk with another');

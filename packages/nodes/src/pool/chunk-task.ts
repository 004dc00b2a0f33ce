import type { Element } from '@quarry/core';
import { chunkByCharacter } from '../chunk/chunk-by-character.js';
import { chunkByPage } from '../chunk/chunk-by-page.js';
import { chunkByTitle } from '../chunk/chunk-by-title.js';
import { loadHtmlParser } from '../chunk/html-table.js';
import type { ChunkFunction } from '../chunk/chunker-node.js';
import type { PooledChunkerSubtype, PooledChunking } from './pooled-chunking.js';

const CHUNKERS: Record<PooledChunkerSubtype, ChunkFunction> = {
  chunk_by_title: chunkByTitle,
  chunk_by_character: chunkByCharacter,
  chunk_by_page: chunkByPage,
};

/**
 * Chunks a document's elements in the partition process that made them, as the chunker node
 * would have in the caller's: its chunking function over the node's resolved options.
 */
export async function chunkInProcess(elements: Element[], chunking: PooledChunking): Promise<Element[]> {
  await loadHtmlParser();
  return CHUNKERS[chunking.subtype](elements, chunking.options);
}

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

// A title, a paragraph and a table with its HTML: what a job's first document has the chunkers do.
const WARM_UP_ELEMENTS: Element[] = [
  { type: 'Title', element_id: 'warm-up-1', text: 'Quarterly report', metadata: { page_number: 1 } },
  { type: 'NarrativeText', element_id: 'warm-up-2', text: 'Every region reported steady growth this quarter.', metadata: { page_number: 1 } },
  {
    type: 'Table',
    element_id: 'warm-up-3',
    text: 'Region Growth North 4%',
    metadata: { page_number: 1, text_as_html: '<table><tr><th>Region</th><th>Growth</th></tr><tr><td>North</td><td>4%</td></tr></table>' },
  },
];

/** Loads the chunkers and runs each once on a tiny document: a warmed partition process's first job does not pay for it. */
export async function warmUpChunking(): Promise<void> {
  await loadHtmlParser();
  for (const chunk of [chunkByTitle, chunkByCharacter, chunkByPage]) chunk(WARM_UP_ELEMENTS, { max_characters: 30 });
}

/**
 * Chunks a document's elements in the partition process that made them, as the chunker node
 * would have in the caller's: its chunking function over the node's resolved options.
 */
export async function chunkInProcess(elements: Element[], chunking: PooledChunking): Promise<Element[]> {
  await loadHtmlParser();
  return CHUNKERS[chunking.subtype](elements, chunking.options);
}

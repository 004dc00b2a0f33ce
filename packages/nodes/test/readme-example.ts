import { readFile } from 'node:fs/promises';
import { chunkByTitle, partitionFile } from '@quarry/nodes';

/** Partitions one file and chunks its elements by title. */
export async function partitionAndChunk(path: string) {
  const elements = await partitionFile(await readFile(path), {
    filename: path,
    strategy: 'fast',
    unique_element_ids: false,
  });
  const chunks = chunkByTitle(elements, { max_characters: 300, include_orig_elements: false });
  return { elements, chunks };
}

import { readFile } from 'node:fs/promises';
import { chunk, partition } from '@quarry/nodes';

/** Partitions a file by path and the same file as bytes, then chunks by title. */
export async function partitionThenChunk(path: string) {
  const elements = await partition(path, { strategy: 'fast' });
  const fromBytes = await partition(await readFile(path), { filename: 'guide.md' });
  const chunks = await chunk(elements, 'chunk_by_title', { max_characters: 300, overlap: 20 });
  return { elements, fromBytes, chunks };
}

import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { QuarryLoader } from '@quarry/langchain';

/** Loads a folder's Markdown and HTML files as chunks by title; returns the two closest to a question, and what failed. */
export async function retrieve(folder: string, question: string, embeddings: EmbeddingsInterface) {
  const loader = new QuarryLoader(folder, { include: ['*.md', '*.html'], mode: 'chunks', chunk: { subtype: 'by_title', settings: { max_characters: 400 } } });
  const chunks = await loader.load(); // a file that fails is skipped, warned about and listed in loader.failures
  const store = await MemoryVectorStore.fromDocuments(chunks, embeddings);
  return { hits: await store.similaritySearch(question, 2), failures: loader.failures };
}

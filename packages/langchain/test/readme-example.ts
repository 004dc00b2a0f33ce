import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { QuarryLoader, QuarryTextSplitter } from '@quarry/langchain';

/** Loads a file, chunks it by title, and returns the two chunks closest to a question. */
export async function retrieve(path: string, question: string, embeddings: EmbeddingsInterface) {
  const elements = await new QuarryLoader(path).load();
  const chunks = await new QuarryTextSplitter({ max_characters: 400 }).splitDocuments(elements);
  const store = await MemoryVectorStore.fromDocuments(chunks, embeddings);
  return store.similaritySearch(question, 2);
}

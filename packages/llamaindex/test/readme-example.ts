import { Settings, VectorStoreIndex, type BaseEmbedding } from 'llamaindex';
import { QuarryReader } from '@quarry/llamaindex';

/** Reads a folder's Markdown and text files as chunks by title; returns the two closest to a question, and what failed. */
export async function retrieve(folder: string, question: string, embedModel: BaseEmbedding) {
  Settings.embedModel = embedModel;
  const reader = new QuarryReader({ include: ['*.md', '*.txt'], mode: 'chunks', chunk: { subtype: 'by_title', settings: { max_characters: 400 } } });
  const nodes = await reader.loadData(folder); // a file that fails is skipped, warned about and listed in reader.failures
  const index = await VectorStoreIndex.init({ nodes });
  return { hits: await index.asRetriever({ similarityTopK: 2 }).retrieve({ query: question }), failures: reader.failures };
}

import { Settings, VectorStoreIndex, type BaseEmbedding } from 'llamaindex';
import { QuarryNodeParser, QuarryReader } from '@quarry/llamaindex';

/** Reads a file, chunks it by title, and returns the two chunks closest to a question. */
export async function retrieve(path: string, question: string, embedModel: BaseEmbedding) {
  Settings.embedModel = embedModel;
  const documents = await new QuarryReader().loadData(path);
  const nodes = await new QuarryNodeParser({ max_characters: 400 }).getNodesFromDocuments(documents);
  const index = await VectorStoreIndex.init({ nodes });
  return index.asRetriever({ similarityTopK: 2 }).retrieve({ query: question });
}

import { Embeddings } from '@langchain/core/embeddings';
import { bagOfWords } from '../../../nodes/test/support/bag-of-words.js';

/** A local LangChain embeddings class for tests: each text's {@link bagOfWords}. */
export class WordEmbeddings extends Embeddings {
  constructor() {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map(bagOfWords);
  }

  async embedQuery(text: string): Promise<number[]> {
    return bagOfWords(text);
  }
}

import { BaseEmbedding } from 'llamaindex';
import { bagOfWords } from '../../../nodes/test/support/bag-of-words.js';

/** A local LlamaIndex embedding for tests: each text's {@link bagOfWords}. */
export class WordEmbedding extends BaseEmbedding {
  constructor() {
    super();
  }

  async getTextEmbedding(text: string): Promise<number[]> {
    return bagOfWords(text);
  }
}

import { BaseEmbedding } from 'llamaindex';
import { bagOfWords } from '../../../nodes/test/support/bag-of-words.js';

/** A local LlamaIndex embedding for tests: each text's {@link bagOfWords}. */
export class WordEmbedding extends BaseEmbedding {
  // biome-ignore lint/complexity/noUselessConstructor: BaseEmbedding's constructor is protected; this one makes it public.
  constructor() {
    super();
  }

  async getTextEmbedding(text: string): Promise<number[]> {
    return bagOfWords(text);
  }
}

import { BaseEmbedding } from 'llamaindex';

/**
 * A local LlamaIndex embedding for tests: each text is a bag of its lower-cased words hashed into
 * 512 dimensions, L2-normalised. Texts that share words are close, so a retrieval test can check
 * which chunk comes back, with no model and no network.
 */
export class WordEmbedding extends BaseEmbedding {
  constructor() {
    super();
  }

  async getTextEmbedding(text: string): Promise<number[]> {
    const v = new Array<number>(512).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
      v[(h >>> 0) % 512]! += 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  }
}

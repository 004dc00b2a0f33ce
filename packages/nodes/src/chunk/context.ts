import type { ChunkingOptions } from './options.js';
import type { TextSplitter } from './text-splitter.js';

/** What every stage of one chunking run shares. */
export interface ChunkContext {
  readonly opts: ChunkingOptions;
  /** Splits oversized text with `max_characters` and `overlap`. */
  readonly splitter: TextSplitter;
}

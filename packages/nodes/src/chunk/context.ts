import type { Element } from '@quarry/core';
import type { ChunkingOptions } from './options.js';
import type { TextSplitter } from './text-splitter.js';

/** What every stage of one chunking run shares. */
export interface ChunkContext {
  readonly opts: ChunkingOptions;
  /** Splits oversized text with `max_characters` and `overlap`. */
  readonly splitter: TextSplitter;
  /** The caller's element behind a working element (they differ only when text was re-encoded). */
  original(el: Element): Element;
  /** `original` of each element; the same array when no text was re-encoded. */
  originals(elements: readonly Element[]): readonly Element[];
}

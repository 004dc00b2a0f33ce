import type { Element } from '@quarry/core';
import { QuarryError } from '@quarry/core/errors';
import { runChunking } from './chunk-pipeline.js';
import { chunkingOptions, similarityThreshold, type ChunkingOptionsInput } from './options.js';
import { isTableFamily, segmentOf, type BoundaryPredicate } from './pre-chunk.js';

/** Embeds texts; one vector per text, in order. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/** Options of {@link chunkBySimilarity}. */
export interface SimilarityChunkingInput extends ChunkingOptionsInput {
  /** Minimum cosine similarity of consecutive elements that may share a chunk (0.01-0.99, default 0.5). */
  similarity_threshold?: number | null;
  /** The embedding function (the platform uses a sentence-transformer model). */
  embed: EmbedTexts;
  /**
   * Treat `Header`, `Footer` and `PageNumber` elements as similar to the text before them and
   * compare the next element with that text instead (the Unstructured API's option of this name),
   * so running headers and footers do not cut a passage that continues on the next page. Default false.
   */
  do_not_break_similarity_on_footer_header?: boolean | null;
}

const PAGE_FURNITURE: ReadonlySet<string> = new Set(['Header', 'Footer', 'PageNumber']);

/** Cosine similarity of two vectors; 0 when either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * `chunk_by_similarity` (a platform-only strategy): consecutive elements share a
 * chunk only while each one's embedding has cosine similarity >= `similarity_threshold` with the
 * previous text element's, and never past `max_characters` (or `new_after_n_chars`). Tables stay
 * in chunks of their own and oversized elements are split, as in `chunkByCharacter`. Elements
 * without text (page breaks) never start a chunk. `embed` is called once, with the whitespace-
 * normalised text of every non-table element that has text.
 *
 * @returns `CompositeElement`, `Table` and `TableChunk` elements with fresh UUID ids (hash ids with
 *   `unique_element_ids: false`).
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options, `INVALID_ARGUMENT` when
 *   `embed` does not return one numeric vector per text.
 * @example
 * ```ts
 * const chunks = await chunkBySimilarity(elements, { similarity_threshold: 0.6, embed: (t) => model.embed(t) });
 * ```
 */
export async function chunkBySimilarity(elements: readonly Element[], options: SimilarityChunkingInput): Promise<Element[]> {
  const { embed, similarity_threshold, do_not_break_similarity_on_footer_header: keepFurniture, ...rest } = options;
  const opts = chunkingOptions('basic', rest);
  const threshold = similarityThreshold(similarity_threshold);
  if (typeof embed !== 'function') {
    throw new QuarryError('INVALID_ARGUMENT', 'chunkBySimilarity needs an `embed` function');
  }

  const embedded: number[] = [];
  const texts: string[] = [];
  elements.forEach((el, i) => {
    const text = isTableFamily(el) ? '' : segmentOf(el);
    if (text) {
      embedded.push(i);
      texts.push(text);
    }
  });
  const vectors = texts.length > 0 ? await embed(texts) : [];
  if (!Array.isArray(vectors) || vectors.length !== texts.length || !vectors.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
    throw new QuarryError('INVALID_ARGUMENT', `embed returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts`);
  }

  // starts[i]: element i begins a new chunk because it is not similar enough to the text before it.
  const starts = new Array<boolean>(elements.length).fill(false);
  let previous: number[] | undefined;
  let k = 0;
  elements.forEach((el, i) => {
    if (isTableFamily(el)) {
      previous = undefined;
      return;
    }
    if (embedded[k] !== i) return;
    const v = vectors[k++] as number[];
    if (keepFurniture && PAGE_FURNITURE.has(el.type)) return;
    if (previous && cosineSimilarity(previous, v) < threshold) starts[i] = true;
    previous = v;
  });

  return runChunking(elements, opts, {
    predicates: (): BoundaryPredicate[] => {
      let i = 0;
      return [() => starts[i++] === true];
    },
    combine: false,
  });
}

import { QuarryError } from '@quarry/core/errors';

/** `unstructured`'s hard maximum when `max_characters` is not given. */
export const CHUNK_MAX_CHARS_DEFAULT = 500;

/** Default `similarity_threshold` of `chunk_by_similarity` (the platform UI's default). */
export const SIMILARITY_THRESHOLD_DEFAULT = 0.5;

/** Error code of every invalid chunking option. */
export const CHUNKING_OPTIONS_INVALID = 'CHUNKING_OPTIONS_INVALID';

/**
 * Resolved chunking options with `unstructured`'s semantics (`ChunkingOptions` of
 * `unstructured.chunking.base`). Every field holds its effective value.
 */
export interface ChunkingOptions {
  /** Hard maximum chunk length in characters (code points). */
  max_characters: number;
  /** Soft maximum: a pre-chunk longer than this takes no more elements. Never above `max_characters`. */
  new_after_n_chars: number;
  /** Characters of overlap between the pieces of a split element (and between all chunks with `overlap_all`). */
  overlap: number;
  /** Apply `overlap` between chunks made of whole elements too. */
  overlap_all: boolean;
  /** by_title: merge a pre-chunk shorter than this with the next one when both fit. 0 disables. */
  combine_text_under_n_chars: number;
  /** by_title: let a section span pages. When false, a page change starts a new section. */
  multipage_sections: boolean;
  /** Put each chunk's source elements in `metadata.orig_elements`. */
  include_orig_elements: boolean;
  /** Keep every Table alone in its chunk (the library's default since 0.22.9). */
  isolate_table: boolean;
  /** Repeat a split table's header rows at the top of each continuation chunk. */
  repeat_table_headers: boolean;
  /**
   * true (default): chunks get UUID v4 ids. false: the SHA-256 ids a partition call of the Python
   * library unstructured gives the chunks it makes: filename, chunk text, page number and the
   * chunk's index among the chunks of that page number, hashed like element ids.
   */
  unique_element_ids: boolean;
}

/** Chunking options as a caller gives them: any field may be missing or `null` (= default). */
export type ChunkingOptionsInput = { [K in keyof ChunkingOptions]?: ChunkingOptions[K] | null };

/** The two strategies of `unstructured`; they differ only in defaults and validation. */
export type LibraryChunkingStrategy = 'basic' | 'by_title';

/** Settings of a chunker node, snake_case as in workflow JSON; `null` or absent means "default". */
export interface ChunkerNodeSettings {
  unstructured_api_url?: string | null;
  unstructured_api_key?: string | null;
  include_orig_elements?: boolean | null;
  new_after_n_chars?: number | null;
  max_characters?: number | null;
  overlap?: number | null;
  overlap_all?: boolean | null;
  contextual_chunking_strategy?: string | null;
  multipage_sections?: boolean | null;
  combine_text_under_n_chars?: number | null;
  similarity_threshold?: number | null;
}

/** Resolved options of `chunk_by_similarity`. */
export interface SimilarityChunkingOptions extends ChunkingOptions {
  /** Minimum cosine similarity of consecutive elements that may share a chunk (0.01-0.99). */
  similarity_threshold: number;
}

function invalid(message: string, option: string, value: unknown): QuarryError {
  return new QuarryError(CHUNKING_OPTIONS_INVALID, message, { details: { option, value } });
}

function intOption(input: ChunkingOptionsInput, name: keyof ChunkingOptions): number | undefined {
  const v = input[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`'${name}' argument must be an integer, got ${JSON.stringify(v)}`, name, v);
  return v;
}

function boolOption(input: ChunkingOptionsInput, name: keyof ChunkingOptions, fallback: boolean): boolean {
  const v = input[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalid(`'${name}' argument must be a boolean, got ${JSON.stringify(v)}`, name, v);
  return v;
}

/**
 * Resolves and validates options with `unstructured`'s semantics and defaults
 * (`max_characters` 500, `new_after_n_chars` = max and capped at max, `overlap` 0,
 * `include_orig_elements` true, `multipage_sections` true, `combine_text_under_n_chars` = max for
 * by_title and unused by basic), plus UUID chunk ids unless `unique_element_ids: false`.
 * Already-resolved options pass through unchanged.
 *
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` with the library's messages, checked in its order.
 * @example
 * ```ts
 * const opts = chunkingOptions('by_title', { max_characters: 1000, combine_text_under_n_chars: 0 });
 * ```
 */
export function chunkingOptions(strategy: LibraryChunkingStrategy, input: ChunkingOptionsInput = {}): ChunkingOptions {
  const maxArg = intOption(input, 'max_characters');
  const newAfterArg = intOption(input, 'new_after_n_chars');
  const overlap = intOption(input, 'overlap') ?? 0;
  const combineArg = strategy === 'by_title' ? intOption(input, 'combine_text_under_n_chars') : undefined;
  const hardMax = maxArg ?? CHUNK_MAX_CHARS_DEFAULT;

  if (hardMax <= 0) throw invalid(`'max_characters' argument must be > 0, got ${hardMax}`, 'max_characters', hardMax);
  if (newAfterArg !== undefined && newAfterArg < 0) {
    throw invalid(`'new_after_n_chars' argument must be >= 0, got ${newAfterArg}`, 'new_after_n_chars', newAfterArg);
  }
  if (overlap >= hardMax) {
    throw invalid(`'overlap' argument must be less than \`max_characters\`, got ${overlap} >= ${hardMax}`, 'overlap', overlap);
  }
  let combine = 0;
  if (strategy === 'by_title') {
    combine = combineArg ?? hardMax;
    if (combine < 0) {
      throw invalid(`'combine_text_under_n_chars' argument must be >= 0, got ${combine}`, 'combine_text_under_n_chars', combine);
    }
    if (combine > hardMax) {
      throw invalid(
        `'combine_text_under_n_chars' argument must not exceed \`max_characters\` value, got ${combine} > ${hardMax}`,
        'combine_text_under_n_chars',
        combine,
      );
    }
  }
  return {
    max_characters: hardMax,
    new_after_n_chars: newAfterArg === undefined || newAfterArg > hardMax ? hardMax : newAfterArg,
    overlap,
    overlap_all: boolOption(input, 'overlap_all', false),
    combine_text_under_n_chars: combine,
    multipage_sections: strategy === 'by_title' ? boolOption(input, 'multipage_sections', true) : true,
    include_orig_elements: boolOption(input, 'include_orig_elements', true),
    isolate_table: boolOption(input, 'isolate_table', true),
    repeat_table_headers: boolOption(input, 'repeat_table_headers', true),
    unique_element_ids: boolOption(input, 'unique_element_ids', true),
  };
}

function nodeValue<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

/**
 * Maps a chunker node's settings onto resolved options. Node defaults follow the Unstructured workflow API
 * (`include_orig_elements` false, `multipage_sections` false); the rest are the library's.
 * `multipage_sections` and `combine_text_under_n_chars` apply to `chunk_by_title` only,
 * `similarity_threshold` to `chunk_by_similarity` only; settings that do not apply are ignored here
 * (workflow validation reports them). Any other subtype (a plugin's chunker) gets the library's
 * `basic` options: which chunkers exist is the registry's business.
 *
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for an invalid value.
 * @example
 * ```ts
 * const opts = resolveChunkingOptions('chunk_by_title', { max_characters: 1500, combine_text_under_n_chars: null });
 * ```
 */
export function resolveChunkingOptions(subtype: 'chunk_by_similarity', settings: ChunkerNodeSettings): SimilarityChunkingOptions;
export function resolveChunkingOptions(subtype: string, settings: ChunkerNodeSettings): ChunkingOptions;
export function resolveChunkingOptions(subtype: string, settings: ChunkerNodeSettings): ChunkingOptions | SimilarityChunkingOptions {
  const byTitle = subtype === 'chunk_by_title';
  const input: ChunkingOptionsInput = {
    max_characters: nodeValue(settings.max_characters),
    new_after_n_chars: nodeValue(settings.new_after_n_chars),
    overlap: nodeValue(settings.overlap),
    overlap_all: nodeValue(settings.overlap_all) ?? false,
    include_orig_elements: nodeValue(settings.include_orig_elements) ?? false,
  };
  if (byTitle) {
    input.multipage_sections = nodeValue(settings.multipage_sections) ?? false;
    input.combine_text_under_n_chars = nodeValue(settings.combine_text_under_n_chars);
  }
  const options = chunkingOptions(byTitle ? 'by_title' : 'basic', input);
  if (subtype !== 'chunk_by_similarity') return options;
  return { ...options, similarity_threshold: similarityThreshold(settings.similarity_threshold) };
}

/**
 * Validates a `similarity_threshold` (the Unstructured workflow API: 0.01 to 0.99; `null` or absent = 0.5).
 *
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` when out of range or not a number.
 */
export function similarityThreshold(value: number | null | undefined): number {
  if (value === undefined || value === null) return SIMILARITY_THRESHOLD_DEFAULT;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0.01 || value > 0.99) {
    throw invalid(`'similarity_threshold' argument must be between 0.01 and 0.99, got ${JSON.stringify(value)}`, 'similarity_threshold', value);
  }
  return value;
}

import { z } from 'zod';
import { addCodedIssue, asRecord, isInt, optionalInt, strictSettings, type IssueSink } from './schema-helpers.js';

/** The library's hard maximum chunk size when `max_characters` is unset (`CHUNK_MAX_CHARS_DEFAULT`, REFERENCE.md a2). */
export const CHUNK_MAX_CHARS_DEFAULT = 500;

/** Chunker subtypes of SPEC.md. */
export const CHUNK_SUBTYPES = ['chunk_by_character', 'chunk_by_title', 'chunk_by_page', 'chunk_by_similarity'] as const;
/** A chunker subtype. */
export type ChunkSubtype = (typeof CHUNK_SUBTYPES)[number];

const commonShape = {
  unstructured_api_url: z.string().nullable().default(null).describe('null: internal default URL'),
  unstructured_api_key: z.string().nullable().default(null).describe('null: internal default key'),
  include_orig_elements: z.boolean().default(false).describe('true: source elements appear in metadata.orig_elements of each chunk'),
  new_after_n_chars: optionalInt('approximate soft limit that closes a chunk; default none', 0),
  max_characters: optionalInt('absolute maximum chunk length; default none (the library default 500 applies)', 1),
  overlap: optionalInt("characters of the prior chunk's tail prefixed to chunks made by splitting oversized elements; default none"),
  overlap_all: z.boolean().default(false).describe('applies overlap to normal chunks made of whole elements'),
  contextual_chunking_strategy: z
    .literal('v1', { error: (iss) => `contextual_chunking_strategy must be "v1" or null; got ${JSON.stringify(iss.input)}` })
    .nullish()
    .describe('"v1" prepends chunk-specific context; default none'),
};

const titleShape = {
  ...commonShape,
  multipage_sections: z.boolean().default(false),
  combine_text_under_n_chars: optionalInt('combines elements of a section until it reaches this length; default none', 0),
};

const similarityShape = {
  ...commonShape,
  similarity_threshold: z
    .number({ error: (iss) => `similarity_threshold must be a number between 0.01 and 0.99; got ${JSON.stringify(iss.input)}` })
    .min(0.01, { error: (iss) => `similarity_threshold must be between 0.01 and 0.99 (0.0 to 1.0 exclusive); got ${String(iss.input)}` })
    .max(0.99, { error: (iss) => `similarity_threshold must be between 0.01 and 0.99 (0.0 to 1.0 exclusive); got ${String(iss.input)}` })
    .nullish()
    .describe('minimum similarity of consecutive elements to share a chunk, 0.01..0.99; default none'),
  embedding: z
    .looseObject({ subtype: z.string().min(1) })
    .nullish()
    .describe("quarry extension: the embedding model, { subtype, ...that embedder's settings }; default: the workflow's embed node"),
};

/**
 * The option checks of the reference library (`ChunkingOptions._validate`, REFERENCE.md a3 items 5,
 * 6, 8, 9, 10) with its messages verbatim. They read raw values, so they also run when other
 * settings of the node are invalid.
 */
function checkChunkingOptions(raw: unknown, ctx: IssueSink, byTitle: boolean): void {
  const v = asRecord(raw);
  const max = v.max_characters;
  let hardMax: number | undefined = CHUNK_MAX_CHARS_DEFAULT;
  if (isInt(max)) {
    if (max <= 0) {
      addCodedIssue(ctx, 'chunking.max_characters_not_positive', ['max_characters'], `'max_characters' argument must be > 0, got ${max}`);
      hardMax = undefined;
    } else hardMax = max;
  } else if (max !== undefined && max !== null) hardMax = undefined;

  const softMax = v.new_after_n_chars;
  if (isInt(softMax) && softMax < 0) {
    addCodedIssue(ctx, 'chunking.new_after_n_chars_negative', ['new_after_n_chars'], `'new_after_n_chars' argument must be >= 0, got ${softMax}`);
  }
  // A negative overlap is not an error in the reference (it is used as given), so only the upper bound is checked.
  const overlap = v.overlap;
  if (hardMax !== undefined && isInt(overlap) && overlap >= hardMax) {
    addCodedIssue(ctx, 'chunking.overlap_too_large', ['overlap'], `'overlap' argument must be less than \`max_characters\`, got ${overlap} >= ${hardMax}`);
  }
  if (!byTitle) return;
  const combine = v.combine_text_under_n_chars;
  if (!isInt(combine)) return;
  if (combine < 0) {
    addCodedIssue(ctx, 'chunking.combine_text_negative', ['combine_text_under_n_chars'], `'combine_text_under_n_chars' argument must be >= 0, got ${combine}`);
  } else if (hardMax !== undefined && combine > hardMax) {
    addCodedIssue(
      ctx,
      'chunking.combine_text_too_large',
      ['combine_text_under_n_chars'],
      `'combine_text_under_n_chars' argument must not exceed \`max_characters\` value, got ${combine} > ${hardMax}`,
    );
  }
}

const always = { when: () => true };

/** Settings of `chunk_by_character` (the library's `basic` strategy). */
export const chunkByCharacterSettings = strictSettings('chunk/chunk_by_character', commonShape).superRefine((v, ctx) => checkChunkingOptions(v, ctx, false), always);
/** Settings of `chunk_by_title`: adds `multipage_sections` and `combine_text_under_n_chars`. */
export const chunkByTitleSettings = strictSettings('chunk/chunk_by_title', titleShape).superRefine((v, ctx) => checkChunkingOptions(v, ctx, true), always);
/** Settings of `chunk_by_page`: the same as `chunk_by_character`. */
export const chunkByPageSettings = strictSettings('chunk/chunk_by_page', commonShape).superRefine((v, ctx) => checkChunkingOptions(v, ctx, false), always);
/** Settings of `chunk_by_similarity`: adds `similarity_threshold` (0.01..0.99). */
export const chunkBySimilaritySettings = strictSettings('chunk/chunk_by_similarity', similarityShape).superRefine(
  (v, ctx) => checkChunkingOptions(v, ctx, false),
  always,
);

/** Parsed `chunk_by_character` settings. */
export type ChunkByCharacterSettings = z.output<typeof chunkByCharacterSettings>;
/** Parsed `chunk_by_title` settings. */
export type ChunkByTitleSettings = z.output<typeof chunkByTitleSettings>;
/** Parsed `chunk_by_page` settings. */
export type ChunkByPageSettings = z.output<typeof chunkByPageSettings>;
/** Parsed `chunk_by_similarity` settings. */
export type ChunkBySimilaritySettings = z.output<typeof chunkBySimilaritySettings>;
/** Parsed settings of any chunker subtype. */
export type ChunkSettings = ChunkByCharacterSettings | ChunkByTitleSettings | ChunkByPageSettings | ChunkBySimilaritySettings;

/** Setting names of each chunker subtype (SPEC.md chunker table, "Applies to"). */
export const CHUNK_SETTING_KEYS: Readonly<Record<ChunkSubtype, readonly string[]>> = {
  chunk_by_character: Object.keys(commonShape),
  chunk_by_title: Object.keys(titleShape),
  chunk_by_page: Object.keys(commonShape),
  chunk_by_similarity: Object.keys(similarityShape),
};

import { addCodedIssue, asRecord, isInt, lazySchema, optionalInt, strictSettings, zod, type IssueSink } from '@quarry/core';
import type { z } from 'zod';
import { CHUNK_MAX_CHARS_DEFAULT } from './options.js';

/**
 * Settings every chunker takes (the platform's chunker table, "Applies to: all"), as a zod shape
 * for a chunker's own schema ({@link chunkerSettings}). Built on first call, which loads zod.
 */
export const chunkCommonShape = lazySchema(() => ({
  unstructured_api_url: zod().string().nullable().default(null).describe('null: internal default URL'),
  unstructured_api_key: zod().string().nullable().default(null).describe('null: internal default key'),
  include_orig_elements: zod().boolean().default(false).describe('true: source elements appear in metadata.orig_elements of each chunk'),
  new_after_n_chars: optionalInt('approximate soft limit that closes a chunk; default none', 0),
  max_characters: optionalInt('absolute maximum chunk length; default none (the library default 500 applies)', 1),
  overlap: optionalInt("characters of the prior chunk's tail prefixed to chunks made by splitting oversized elements; default none"),
  overlap_all: zod().boolean().default(false).describe('applies overlap to normal chunks made of whole elements'),
  contextual_chunking_strategy: zod()
    .literal('v1', { error: (iss) => `contextual_chunking_strategy must be "v1" or null; got ${JSON.stringify(iss.input)}` })
    .nullish()
    .describe('"v1" prepends chunk-specific context; default none'),
}));

/**
 * The option checks of the Python library `unstructured` (`ChunkingOptions._validate`) with its
 * messages verbatim. They read raw values, so they also run when other settings of the node are
 * invalid.
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
  // A negative overlap is not an error in the library (it is used as given), so only the upper bound is checked.
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

/**
 * A chunker's settings schema: strict `shape` plus the library's option checks
 * (`combine_text_under_n_chars` bounds only for `chunk_by_title`).
 */
export function chunkerSettings<const S extends z.ZodRawShape>(subtype: string, shape: S, options: { byTitle?: boolean } = {}) {
  return strictSettings(`chunk/${subtype}`, shape).superRefine((v, ctx) => checkChunkingOptions(v, ctx, options.byTitle === true), { when: () => true });
}

/**
 * The largest chunk a chunker makes for its settings, for node ordering rule 5: `max_characters`,
 * or the library default 500 when unset. Undefined for an invalid value (reported on its own).
 */
export function chunkMaxCharacters(settings: Record<string, unknown>): { max: number; unset: boolean } | undefined {
  const raw = settings.max_characters;
  if (raw === undefined || raw === null) return { max: CHUNK_MAX_CHARS_DEFAULT, unset: true };
  return isInt(raw) && raw > 0 ? { max: raw, unset: false } : undefined;
}

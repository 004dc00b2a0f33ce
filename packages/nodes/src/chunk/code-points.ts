/**
 * The reference library counts and slices text in code points; JavaScript strings index UTF-16
 * code units, so an emoji counts 1 there and 2 here. Rather than carry a code-point index through
 * every length check, a document's astral characters are swapped for private-use BMP characters
 * that occur nowhere in it (one code unit each), chunking runs on that text, and the chunks are
 * mapped back. Documents without astral characters, the common case, skip all of this.
 */

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
const SURROGATE_PAIR_G = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
const REPLACEMENT_RANGE = /[\uE000-\uF8FF\uFDD0-\uFDEF]/;
const NEEDS_CODEC_LOOK = /[\uD800-\uDFFF\uE000-\uF8FF\uFDD0-\uFDEF]/;
const REPLACEMENT_RANGE_G = /[\uE000-\uF8FF\uFDD0-\uFDEF]/g;

/** A reversible mapping between a document's text and its one-unit-per-code-point form. */
export interface TextCodec {
  /** True when encoding changes nothing (no astral characters). */
  readonly identity: boolean;
  encode(s: string): string;
  decode(s: string): string;
}

const IDENTITY: TextCodec = { identity: true, encode: (s) => s, decode: (s) => s };

// Private-use area first, then the BMP noncharacters U+FDD0-U+FDEF.
function* replacementCandidates(): Generator<string> {
  for (let c = 0xe000; c <= 0xf8ff; c++) yield String.fromCharCode(c);
  for (let c = 0xfdd0; c <= 0xfdef; c++) yield String.fromCharCode(c);
}

/**
 * True when `s` may matter to a codec: it holds surrogates (astral characters) or characters a
 * codec could use as replacements. Strings for which this is false need no encoding and can be
 * left out of {@link codecFor}.
 */
export function needsCodecLook(s: string): boolean {
  return NEEDS_CODEC_LOOK.test(s);
}

/**
 * Builds the codec for a set of strings (every text the chunker will measure). When a document
 * holds more distinct astral characters than free replacement characters (thousands), the rest
 * keep their two-unit form and count as two, the only case where lengths can drift.
 */
export function codecFor(strings: Iterable<string>): TextCodec {
  const all: string[] = [];
  const pairs = new Set<string>();
  for (const s of strings) {
    all.push(s);
    if (SURROGATE_PAIR.test(s)) for (const m of s.matchAll(SURROGATE_PAIR_G)) pairs.add(m[0]);
  }
  if (pairs.size === 0) return IDENTITY;

  const used = new Set<string>();
  for (const s of all) if (REPLACEMENT_RANGE.test(s)) for (const m of s.matchAll(REPLACEMENT_RANGE_G)) used.add(m[0]);
  const toBmp = new Map<string, string>();
  const toAstral = new Map<string, string>();
  const candidates = replacementCandidates();
  for (const pair of pairs) {
    let next = candidates.next();
    while (!next.done && used.has(next.value)) next = candidates.next();
    if (next.done) break;
    toBmp.set(pair, next.value);
    toAstral.set(next.value, pair);
  }
  const back = new RegExp(`[${[...toAstral.keys()].join('')}]`, 'g');
  return {
    identity: false,
    encode: (s) => (SURROGATE_PAIR.test(s) ? s.replace(SURROGATE_PAIR_G, (p) => toBmp.get(p) ?? p) : s),
    decode: (s) => (toAstral.size === 0 || !REPLACEMENT_RANGE.test(s) ? s : s.replace(back, (c) => toAstral.get(c) ?? c)),
  };
}

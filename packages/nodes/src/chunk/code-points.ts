/**
 * The reference library counts and slices text in code points; JavaScript strings index UTF-16
 * code units, so an emoji counts 1 there and 2 here. Rather than carry a code-point index through
 * every length check, a document's astral characters are swapped for private-use BMP characters
 * that occur nowhere in it (one code unit each), chunking runs on that text, and the chunks are
 * mapped back. Documents without astral characters, the common case, skip all of this.
 */

const SURROGATE = /[\uD800-\uDFFF]/;
const REPLACEMENT_RANGE = /[\uE000-\uF8FF\uFDD0-\uFDEF]/;
const NEEDS_CODEC_LOOK = /[\uD800-\uF8FF\uFDD0-\uFDEF]/;

/** A reversible mapping between a document's text and its one-unit-per-code-point form. */
export interface TextCodec {
  /** True when encoding changes nothing (no astral characters). */
  readonly identity: boolean;
  encode(s: string): string;
  decode(s: string): string;
}

const IDENTITY: TextCodec = { identity: true, encode: (s) => s, decode: (s) => s };

function isReplacementUnit(c: number): boolean {
  return (c >= 0xe000 && c <= 0xf8ff) || (c >= 0xfdd0 && c <= 0xfdef);
}

// Private-use area first, then the BMP noncharacters U+FDD0-U+FDEF.
function* replacementUnits(): Generator<number> {
  for (let c = 0xe000; c <= 0xf8ff; c++) yield c;
  for (let c = 0xfdd0; c <= 0xfdef; c++) yield c;
}

// Calls `visit(i, codePoint)` for each well-formed surrogate pair of `s` (at index i).
function forEachPair(s: string, visit: (i: number, codePoint: number) => void): void {
  const last = s.length - 1;
  for (let i = 0; i < last; i++) {
    const hi = s.charCodeAt(i);
    if (hi < 0xd800 || hi > 0xdbff) continue;
    const lo = s.charCodeAt(i + 1);
    if (lo < 0xdc00 || lo > 0xdfff) continue;
    visit(i, (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000);
    i++;
  }
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
  const astral = new Set<number>();
  for (const s of strings) {
    all.push(s);
    if (SURROGATE.test(s)) forEachPair(s, (_, cp) => astral.add(cp));
  }
  if (astral.size === 0) return IDENTITY;

  const used = new Set<number>();
  for (const s of all) {
    if (!REPLACEMENT_RANGE.test(s)) continue;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (isReplacementUnit(c)) used.add(c);
    }
  }
  // Code point -> its one-unit stand-in, and back; strings are built once, here.
  const toBmp = new Map<number, string>();
  const toAstral = new Map<number, string>();
  const candidates = replacementUnits();
  for (const cp of astral) {
    let next = candidates.next();
    while (!next.done && used.has(next.value)) next = candidates.next();
    if (next.done) break;
    toBmp.set(cp, String.fromCharCode(next.value));
    toAstral.set(next.value, String.fromCodePoint(cp));
  }
  return {
    identity: false,
    encode(s) {
      if (!SURROGATE.test(s)) return s;
      const parts: string[] = [];
      let from = 0;
      forEachPair(s, (i, cp) => {
        const unit = toBmp.get(cp);
        if (unit === undefined) return;
        parts.push(s.slice(from, i), unit);
        from = i + 2;
      });
      if (from === 0) return s;
      parts.push(s.slice(from));
      return parts.join('');
    },
    decode(s) {
      if (toAstral.size === 0 || !REPLACEMENT_RANGE.test(s)) return s;
      const parts: string[] = [];
      let from = 0;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (!isReplacementUnit(c)) continue;
        const pair = toAstral.get(c);
        if (pair === undefined) continue;
        parts.push(s.slice(from, i), pair);
        from = i + 1;
      }
      if (from === 0) return s;
      parts.push(s.slice(from));
      return parts.join('');
    },
  };
}

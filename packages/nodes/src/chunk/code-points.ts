/**
 * `unstructured` library counts and slices text in code points; JavaScript strings index UTF-16
 * code units, so an emoji counts 1 there and 2 here. Lengths are measured in code points
 * (`codePointLength`: the units less the surrogate pairs), which is all that grouping elements and
 * keeping whole ones needs. Where text must be cut at a position (splitting an oversized chunk or
 * table), the text's astral characters are first swapped for private-use BMP characters that occur
 * nowhere in it (one code unit each), the cut is made on that, and the pieces are mapped back
 * (`codecFor`). Text without astral characters, the common case, skips all of this.
 */

const SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
const REPLACEMENT_UNITS = /[\uE000-\uF8FF\uFDD0-\uFDEF]/g;
// First high and first low surrogate.
const HIGH = 0xd800;
const LOW = 0xdc00;

/** A reversible mapping between a document's text and its one-unit-per-code-point form. */
export interface TextCodec {
  /** True when encoding changes nothing (no astral characters). */
  readonly identity: boolean;
  encode(s: string): string;
  decode(s: string): string;
}

const IDENTITY: TextCodec = { identity: true, encode: (s) => s, decode: (s) => s };

/**
 * The number of surrogate pairs in `s`: each is one code point in two code units. A lone
 * surrogate is one unit and one code point, as in Python.
 */
export function surrogatePairs(s: string): number {
  if (!SURROGATE.test(s)) return 0;
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    if (isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1))) {
      pairs++;
      i++;
    }
  }
  return pairs;
}

function isHighSurrogate(c: number): boolean {
  return c >= HIGH && c < LOW;
}

function isLowSurrogate(c: number): boolean {
  return c >= LOW && c <= 0xdfff;
}

/** The length of `s` in code points (Python's `len`). */
export function codePointLength(s: string): number {
  return s.length - surrogatePairs(s);
}

/** The last `n` code points of `s` (Python's `s[-n:]` for `n > 0`; all of `s` when it is shorter). */
export function codePointTail(s: string, n: number): string {
  let i = s.length;
  for (let k = 0; k < n && i > 0; k++) {
    i -= i >= 2 && isLowSurrogate(s.charCodeAt(i - 1)) && isHighSurrogate(s.charCodeAt(i - 2)) ? 2 : 1;
  }
  return s.slice(i);
}

// Stand-in units in the order they are handed out: the private-use area, then the BMP
// noncharacters U+FDD0-U+FDEF.
function* standInUnits(): Generator<string> {
  for (let c = 0xe000; c <= 0xf8ff; c++) yield String.fromCharCode(c);
  for (let c = 0xfdd0; c <= 0xfdef; c++) yield String.fromCharCode(c);
}

/**
 * Builds the codec for a set of strings (every text the chunker will measure). When a document
 * holds more distinct astral characters than free stand-in characters (thousands), the rest keep
 * their two-unit form and count as two, the only case where lengths can drift.
 */
export function codecFor(strings: Iterable<string>): TextCodec {
  const all = [...strings];
  // Astral characters, in order of first appearance.
  const astral = new Set<string>();
  for (const s of all) if (SURROGATE.test(s)) for (const [pair] of s.matchAll(SURROGATE_PAIRS)) astral.add(pair);
  if (astral.size === 0) return IDENTITY;

  // Stand-ins the strings hold already are never used.
  const taken = new Set<string>();
  for (const s of all) for (const [unit] of s.matchAll(REPLACEMENT_UNITS)) taken.add(unit);
  const toUnit = new Map<string, string>();
  const toPair = new Map<string, string>();
  const units = standInUnits();
  for (const pair of astral) {
    let unit = units.next();
    while (!unit.done && taken.has(unit.value)) unit = units.next();
    // Out of stand-ins: this and every later character keep their surrogate pair.
    if (unit.done) break;
    toUnit.set(pair, unit.value);
    toPair.set(unit.value, pair);
  }
  return {
    identity: false,
    encode: (s) => s.replace(SURROGATE_PAIRS, (pair) => toUnit.get(pair) ?? pair),
    decode: (s) => (toPair.size === 0 ? s : s.replace(REPLACEMENT_UNITS, (unit) => toPair.get(unit) ?? unit)),
  };
}

import { endianness } from 'node:os';

/**
 * The reference library counts and slices text in code points; JavaScript strings index UTF-16
 * code units, so an emoji counts 1 there and 2 here. Lengths are measured in code points
 * (`codePointLength`: the units less the surrogate pairs), which is all that grouping elements and
 * keeping whole ones needs. Where text must be cut at a position (splitting an oversized chunk or
 * table), the text's astral characters are first swapped for private-use BMP characters that occur
 * nowhere in it (one code unit each), the cut is made on that, and the pieces are mapped back
 * (`codecFor`). Text without astral characters, the common case, skips all of this.
 */

const SURROGATE = /[\uD800-\uDFFF]/;
const REPLACEMENT_RANGE = /[\uE000-\uF8FF\uFDD0-\uFDEF]/;

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

// Dense index of a replacement unit: U+E000-U+F8FF, then U+FDD0-U+FDEF.
const REPLACEMENT_UNITS = 0xf8ff - 0xe000 + 1 + 0x20;
function replacementIndex(c: number): number {
  return c <= 0xf8ff ? c - 0xe000 : c - 0xfdd0 + (0xf8ff - 0xe000 + 1);
}

// Private-use area first, then the BMP noncharacters U+FDD0-U+FDEF.
function* replacementUnits(): Generator<number> {
  for (let c = 0xe000; c <= 0xf8ff; c++) yield c;
  for (let c = 0xfdd0; c <= 0xfdef; c++) yield c;
}

// The string of `length` code units. Where typed arrays are little-endian (nearly everywhere) the
// units are decoded as `utf16le` by Buffer, which, unlike TextDecoder, keeps lone surrogates as
// they are, as it must; elsewhere String.fromCharCode runs over blocks that stay below the
// engine's argument limit.
const LITTLE_ENDIAN = endianness() === 'LE';
const BLOCK = 8192;

// Code units being converted. One array, grown as needed, serves every call: a fresh typed array
// per string costs far more than the conversion of a typical element text. Huge strings get an
// array of their own, so that one of them does not pin its size in memory.
const SCRATCH_MAX = 1 << 20;
let scratch = new Uint16Array(1024);
function unitsFor(length: number): Uint16Array {
  if (length > SCRATCH_MAX) return new Uint16Array(length);
  if (scratch.length < length) scratch = new Uint16Array(Math.min(SCRATCH_MAX, Math.max(length, scratch.length * 2)));
  return scratch;
}
function fromUnits(units: Uint16Array, length: number): string {
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, 2 * length).toString('utf16le');
  let out = '';
  for (let i = 0; i < length; i += BLOCK) {
    out += String.fromCharCode.apply(null, units.subarray(i, Math.min(length, i + BLOCK)) as unknown as number[]);
  }
  return out;
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
// First high and first low surrogate.
const HIGH = 0xd800;
const LOW = 0xdc00;

/**
 * The number of surrogate pairs in `s`: each is one code point in two code units. A lone
 * surrogate is one unit and one code point, as in Python.
 */
export function surrogatePairs(s: string): number {
  if (!HIGH_SURROGATE.test(s)) return 0;
  let pairs = 0;
  const n = s.length;
  for (let i = 0; i + 1 < n; i++) {
    const c = s.charCodeAt(i);
    if (c < HIGH || c >= LOW) continue;
    const lo = s.charCodeAt(i + 1);
    if (lo >= LOW && lo <= 0xdfff) {
      pairs++;
      i++;
    }
  }
  return pairs;
}

/** The length of `s` in code points (Python's `len`). */
export function codePointLength(s: string): number {
  return s.length - surrogatePairs(s);
}

/** The last `n` code points of `s` (Python's `s[-n:]` for `n > 0`; all of `s` when it is shorter). */
export function codePointTail(s: string, n: number): string {
  let i = s.length;
  for (let k = 0; k < n && i > 0; k++) {
    const lo = s.charCodeAt(i - 1);
    i -= i >= 2 && lo >= LOW && lo <= 0xdfff && s.charCodeAt(i - 2) >= HIGH && s.charCodeAt(i - 2) < LOW ? 2 : 1;
  }
  return s.slice(i);
}

// Astral code points are looked up by their surrogates: one 1,024-entry page per high surrogate,
// holding each low surrogate's stand-in unit (0: none). A document's astral characters fall in a
// few pages, so this costs a few kilobytes and no hashing.
const PAGE = 0x400;
// Marks a code point seen while collecting, before it has a stand-in.
const SEEN = 0xffff;
type Pages = Array<Uint16Array | undefined>;

// The code point of a surrogate pair's two units.
function codePoint(hi: number, lo: number): number {
  return (hi - HIGH) * PAGE + (lo - LOW) + 0x10000;
}

/**
 * Builds the codec for a set of strings (every text the chunker will measure). When a document
 * holds more distinct astral characters than free replacement characters (thousands), the rest
 * keep their two-unit form and count as two, the only case where lengths can drift.
 */
export function codecFor(strings: Iterable<string>): TextCodec {
  const all: string[] = [];
  const pages: Pages = new Array<Uint16Array | undefined>(PAGE);
  // Astral code points as [high, low] surrogates, in order of first appearance.
  const astral: number[] = [];
  for (const s of strings) {
    all.push(s);
    if (!SURROGATE.test(s)) continue;
    const n = s.length;
    for (let i = 0; i + 1 < n; i++) {
      const hi = s.charCodeAt(i);
      if (hi < HIGH || hi >= LOW) continue;
      const lo = s.charCodeAt(i + 1);
      if (lo < LOW || lo > 0xdfff) continue;
      const page = (pages[hi - HIGH] ??= new Uint16Array(PAGE));
      if (page[lo - LOW] === 0) {
        page[lo - LOW] = SEEN;
        astral.push(hi, lo);
      }
      i++;
    }
  }
  if (astral.length === 0) return IDENTITY;

  // Replacement units the strings hold already (never used as stand-ins).
  const used = new Uint8Array(REPLACEMENT_UNITS);
  for (const s of all) {
    if (!REPLACEMENT_RANGE.test(s)) continue;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (isReplacementUnit(c)) used[replacementIndex(c)] = 1;
    }
  }
  // Stand-in unit -> code point, indexed by replacementIndex; 0 = unused.
  const toAstral = new Int32Array(REPLACEMENT_UNITS);
  let mapped = 0;
  const candidates = replacementUnits();
  for (let k = 0; k < astral.length; k += 2) {
    const hi = astral[k] as number;
    const lo = astral[k + 1] as number;
    let next = candidates.next();
    while (!next.done && used[replacementIndex(next.value)] === 1) next = candidates.next();
    const page = pages[hi - HIGH] as Uint16Array;
    if (next.done) {
      // Out of stand-ins: this and every later code point keep their surrogate pair.
      page[lo - LOW] = 0;
      continue;
    }
    page[lo - LOW] = next.value;
    toAstral[replacementIndex(next.value)] = codePoint(hi, lo);
    mapped++;
  }
  return {
    identity: false,
    encode(s) {
      if (!SURROGATE.test(s)) return s;
      const n = s.length;
      const units = unitsFor(n);
      let o = 0;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= HIGH && c < LOW && i + 1 < n) {
          const lo = s.charCodeAt(i + 1);
          const unit = lo >= LOW && lo <= 0xdfff ? (pages[c - HIGH]?.[lo - LOW] ?? 0) : 0;
          if (unit !== 0) {
            units[o++] = unit;
            i++;
            continue;
          }
        }
        units[o++] = c;
      }
      return fromUnits(units, o);
    },
    decode(s) {
      if (mapped === 0 || !REPLACEMENT_RANGE.test(s)) return s;
      const units = unitsFor(s.length * 2);
      let o = 0;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        const cp = isReplacementUnit(c) ? (toAstral[replacementIndex(c)] as number) : 0;
        if (cp === 0) {
          units[o++] = c;
        } else {
          units[o++] = 0xd800 + ((cp - 0x10000) >> 10);
          units[o++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        }
      }
      return fromUnits(units, o);
    },
  };
}

import { endianness } from 'node:os';
import { NEWLINES_AT, OTHER_BIT, REPORT_BIT, REPORT_FLAG, SEPARATOR_BIT, UNITS_AT, WINDOW_UNITS, createWasmScanner } from './plain-scan-wasm.js';

/**
 * The fast path of an element's chunk-text segment. Python's `" ".join(s.split())` leaves a text
 * unchanged except for its line breaks when the text has no whitespace but single spaces and
 * single `"\n"`s between words; partitioner output is mostly like that. Deciding it takes a look at
 * every character, which regular expressions do at a couple of nanoseconds per character; here the
 * text's UTF-16 units are copied natively into WebAssembly memory and checked sixteen at a time with
 * SIMD (`plain-scan-wasm.ts`), or, where that is unavailable or the text is very long, copied into a
 * scratch buffer and classified two at a time through a 64 KiB table. Either is several times
 * faster; the same pass reports whether the text holds surrogates (astral characters, which make
 * code points and code units differ), and the line breaks it finds are replaced by splicing the
 * text (no character copied). A text off the fast path is collapsed by `collapseWhitespace`,
 * exactly; the fast path only has to be right when it says yes.
 */

// Class bits of a UTF-16 code unit.
/** `" "` or `"\n"`: fine alone between words, not twice in a row nor at either end. */
const SEPARATOR = SEPARATOR_BIT;
/** `"\n"` (also a SEPARATOR): becomes a space. */
const NEWLINE = 2;
/** Any other Python whitespace: takes a text off the fast path. */
const OTHER = OTHER_BIT;
/** A surrogate (see `code-points.ts`): reported, but not whitespace. */
const SURROGATE = REPORT_BIT;

/**
 * Python's whitespace (`str.isspace`) besides `" "` and `"\n"`. A superset would only cost speed;
 * U+202A-U+202E ride along with U+2028-U+202F.
 */
const OTHER_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x09], [0x0b, 0x0d], [0x1c, 0x1f], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000],
];
/** Surrogates: a text holding one may be shorter in code points than in code units. */
const SURROGATE_RANGES: ReadonlyArray<readonly [number, number]> = [[0xd800, 0xdfff]];

const CLASS = (() => {
  const t = new Uint8Array(0x10000);
  for (const [from, to] of OTHER_RANGES) t.fill(OTHER, from, to + 1);
  for (const [from, to] of SURROGATE_RANGES) t.fill(SURROGATE, from, to + 1);
  t[0x20] = SEPARATOR;
  t[0x0a] = SEPARATOR | NEWLINE;
  return t;
})();

const wasm = (() => {
  const scanner = createWasmScanner();
  if (!scanner) return undefined;
  new Uint8Array(scanner.memory.buffer, 0, CLASS.length).set(CLASS);
  return {
    scan: scanner.scan,
    load: utf16Writer(Buffer.from(scanner.memory.buffer, UNITS_AT, 2 * WINDOW_UNITS)),
    newlines: new Int32Array(scanner.memory.buffer, NEWLINES_AT, WINDOW_UNITS),
  };
})();

// Writes a string's code units at the start of `buffer` (little-endian). Buffer's own `ucs2Write`
// skips the argument handling of `write`, a noticeable share of the cost for short texts.
function utf16Writer(buffer: Buffer): (s: string) => void {
  const ucs2Write = (buffer as { ucs2Write?: (s: string, offset: number) => number }).ucs2Write;
  if (typeof ucs2Write === 'function') return (s) => void ucs2Write.call(buffer, s, 0);
  return (s) => void buffer.write(s, 0, 'utf16le');
}

// The scratch buffer holds a window of WINDOW units; a longer text is scanned window by window.
const WINDOW = 1 << 15;
const LITTLE_ENDIAN = endianness() === 'LE';
const scratch = Buffer.allocUnsafeSlow(WINDOW * 2);
const units16 = new Uint16Array(scratch.buffer, scratch.byteOffset, WINDOW);
const units32 = new Uint32Array(scratch.buffer, scratch.byteOffset, WINDOW / 2);
// Positions of the text's line breaks; grows with the longest text seen.
let newlines = new Int32Array(256);
// Where the last scan left its line-break positions.
let found = newlines;

// Copies text[from, from + n) into units16 in native byte order.
function load(text: string, from: number, n: number): void {
  if (LITTLE_ENDIAN) {
    scratch.write(from === 0 && n === text.length ? text : text.slice(from, from + n), 0, 'utf16le');
    return;
  }
  for (let i = 0; i < n; i++) units16[i] = text.charCodeAt(from + i);
}

// Newline positions are needed past `count`; make room for `n` more.
function reserve(count: number, n: number): void {
  if (count + n <= newlines.length) return;
  const grown = new Int32Array(Math.max(newlines.length * 2, count + n));
  grown.set(newlines.subarray(0, count));
  newlines = grown;
}

/** Part of a {@link scanPlain} result: the text holds a surrogate. */
export const SURROGATE_FLAG = REPORT_FLAG;

/** The number of line breaks in a non-negative {@link scanPlain} result. */
export function newlineCount(scan: number): number {
  return scan & (SURROGATE_FLAG - 1);
}

// The first and last unit may be neither a separator nor other whitespace.
const EDGE = SEPARATOR | OTHER;

/**
 * Decides whether `text` takes the fast path: no whitespace but single spaces and single line
 * breaks between non-whitespace characters. Returns -1 when it does not, else the number of line
 * breaks, whose positions (ascending) {@link lastNewlines} holds until the next scan, plus
 * `SURROGATE_FLAG` when the text holds a surrogate (so that its code points must be counted).
 * `text` must not be empty.
 */
export function scanPlain(text: string): number {
  const length = text.length;
  if (wasm === undefined || length > WINDOW_UNITS) return scanPlainScalar(text);
  wasm.load(text);
  found = wasm.newlines;
  return wasm.scan(length);
}

/** The line-break positions found by the last {@link scanPlain} (or {@link scanPlainScalar}). */
export function lastNewlines(): Int32Array {
  return found;
}

/**
 * `" ".join(text.split())` when `text` takes the fast path (see {@link scanPlain}), else
 * `undefined` (the caller computes the segment exactly). `text` must not be empty.
 */
export function plainSegment(text: string): string | undefined {
  const scan = scanPlain(text);
  if (scan < 0) return undefined;
  const count = newlineCount(scan);
  return count === 0 ? text : spliceSpaces(text, found, 0, count);
}

/**
 * {@link scanPlain} without WebAssembly: the table scan, window by window. Exported so that tests
 * hold both scanners to the same results.
 */
export function scanPlainScalar(text: string): number {
  const length = text.length;
  if (((CLASS[text.charCodeAt(0)] as number) | (CLASS[text.charCodeAt(length - 1)] as number)) & EDGE) return -1;
  found = newlines;
  let count = 0;
  // Class of the unit before the current pair; `seen` and `twice` gather the class bits of every
  // unit and of every adjacent pair (bit SEPARATOR of `twice` = two separators in a row).
  let before = 0;
  let seen = 0;
  let twice = 0;
  for (let from = 0; from < length; from += WINDOW) {
    const n = Math.min(WINDOW, length - from);
    load(text, from, n);
    const pairs = n >> 1;
    for (let p = 0; p < pairs; p++) {
      const w = units32[p] as number;
      // Native order is little-endian here or units were stored one by one: low half first.
      const a = CLASS[LITTLE_ENDIAN ? w & 0xffff : w >>> 16] as number;
      const b = CLASS[LITTLE_ENDIAN ? w >>> 16 : w & 0xffff] as number;
      seen |= a | b;
      twice |= (before & a) | (a & b);
      before = b;
      if ((a | b) & NEWLINE) {
        reserve(count, 2);
        if (a & NEWLINE) newlines[count++] = from + 2 * p;
        if (b & NEWLINE) newlines[count++] = from + 2 * p + 1;
      }
    }
    if (n & 1) {
      const k = CLASS[units16[n - 1] as number] as number;
      seen |= k;
      twice |= before & k;
      before = k;
      if (k & NEWLINE) {
        reserve(count, 1);
        newlines[count++] = from + n - 1;
      }
    }
    if (seen & OTHER || twice & SEPARATOR) return -1;
  }
  found = newlines;
  return seen & SURROGATE ? count | SURROGATE_FLAG : count;
}

/**
 * `text` with the `count` line breaks at `at[from]`, `at[from + 1]`, ... (ascending) turned into
 * spaces, as a concatenation of slices of `text`: no character is copied until someone flattens
 * the result.
 */
export function spliceSpaces(text: string, at: Int32Array, from: number, count: number): string {
  let out = text.slice(0, at[from]);
  const last = from + count - 1;
  for (let j = from + 1; j <= last; j++) out = out + ' ' + text.slice((at[j - 1] as number) + 1, at[j]);
  return out + ' ' + text.slice((at[last] as number) + 1);
}

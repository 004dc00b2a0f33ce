/**
 * A WebAssembly SIMD kernel that checks a text's UTF-16 code units sixteen at a time for the fast
 * path of whitespace collapsing (see `text-scan.ts`) and lists its line breaks. The module is a few
 * hundred bytes, assembled here from the instruction list below, so there is no binary to ship or
 * build; when the runtime has no WebAssembly SIMD the caller uses its JavaScript scanner.
 *
 * Memory layout (linear memory, little-endian):
 * - `[0, 0x10000)`: one class byte per code unit, written by the caller; bit `SEPARATOR_BIT` marks
 *   a space or line break, bit `OTHER_BIT` a unit that takes a text off the fast path, bit
 *   `REPORT_BIT` one the caller wants reported (surrogates, whose code points it counts). Only
 *   `" "` and `"\n"` may be separators, and OTHER and REPORT units must lie in the prefilter's
 *   superset below (Python's whitespace and surrogates do).
 * - `[UNITS_AT, UNITS_AT + 2 * WINDOW_UNITS)`: the text, as the caller writes it (`utf16le`).
 * - `[NEWLINES_AT, NEWLINES_AT + 4 * WINDOW_UNITS)`: the line-break positions found (`i32`).
 *
 * `scan(n)` looks at the first `n` units (`1 <= n <= WINDOW_UNITS`). It returns -1 when the first or
 * the last unit is a separator or OTHER, when any unit is OTHER, or when two adjacent units are
 * separators; else the number of line breaks, whose positions (unit indexes, ascending) it has
 * stored at `NEWLINES_AT`, plus `REPORT_FLAG` when a REPORT unit occurs.
 *
 * The vector loop narrows each 16 units to bytes twice: their low byte saturated (units
 * U+0100-U+7FFF become 0xFF, units from U+8000 become 0x00, neither of which is a space, a line
 * break or in the ranges tested) and their high byte. Space and line-break tests on the first are
 * exact; the OTHER and REPORT test is a cheap superset (control characters, U+0085-U+00A0, high
 * bytes 0x16, 0x20, 0x30 and 0xD8-0xDF), made by nibble-table lookups, and a block that hits it
 * is checked unit by unit through the class table, so the result is exact. Units past `n` in the
 * last block are replaced by 'a' before the tests. Nothing else in memory is read.
 */

/** First byte of the text in linear memory. */
export const UNITS_AT = 0x10000;
/** Longest text one call can scan, in code units. */
export const WINDOW_UNITS = 0x8000;
/** First byte of the line-break positions in linear memory. */
export const NEWLINES_AT = UNITS_AT + 2 * WINDOW_UNITS + 64;
/** Class-table bit of a space or line break. */
export const SEPARATOR_BIT = 1;
/** Class-table bit of a unit that takes a text off the fast path. */
export const OTHER_BIT = 4;
/** Class-table bit of a unit to report (one that keeps the fast path): a surrogate, for the caller. */
export const REPORT_BIT = 8;
/** Added to `scan`'s count when a REPORT unit occurs. */
export const REPORT_FLAG = REPORT_BIT << 27;
const MEMORY_PAGES = Math.ceil((NEWLINES_AT + 4 * WINDOW_UNITS) / 0x10000);

/** The instantiated kernel. */
export interface WasmScanner {
  /** The module's linear memory (fixed size; views on it stay valid). */
  readonly memory: { readonly buffer: ArrayBuffer };
  /** See the module comment. */
  scan(n: number): number;
}

// ---- a minimal WebAssembly assembler: just what the kernel uses ----

const I32 = 0x7f;
const V128 = 0x7b;
const VOID = 0x40;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const simd = (opcode: number): number[] => [0xfd, ...uleb(opcode)];
// Natural alignment is not required (unaligned access is valid); 0 = byte-aligned hint.
const memarg = (offset: number): number[] => [0, ...uleb(offset)];

const op = {
  block: [0x02, VOID],
  loop: [0x03, VOID],
  if: [0x04, VOID],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  return: [0x0f],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  i32Load8U: (offset: number) => [0x2d, ...memarg(offset)],
  i32Load16U: (offset: number) => [0x2f, ...memarg(offset)],
  i32Store: (offset: number) => [0x36, ...memarg(offset)],
  i32Const: (n: number) => [0x41, ...sleb(n)],
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Ctz: [0x68],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32And: [0x71],
  i32Or: [0x72],
  i32Shl: [0x74],
  i32ShrU: [0x76],
  v128Load: (offset: number) => [...simd(0x00), ...memarg(offset)],
  v128Const: (bytes: readonly number[]) => [...simd(0x0c), ...bytes],
  i8x16Shuffle: (lanes: readonly number[]) => [...simd(0x0d), ...lanes],
  i8x16Swizzle: simd(0x0e),
  i8x16ShrU: simd(0x6d),
  i8x16Splat: simd(0x0f),
  i16x8Splat: simd(0x10),
  i8x16Eq: simd(0x23),
  i16x8LtS: simd(0x2f),
  v128And: simd(0x4e),
  v128Or: simd(0x50),
  v128Bitselect: simd(0x52),
  v128AnyTrue: simd(0x53),
  i8x16Bitmask: simd(0x64),
  i8x16NarrowI16x8U: simd(0x66),
};

/** A `v128` of sixteen equal bytes. */
const bytes16 = (b: number): number[] => op.v128Const(Array.from({ length: 16 }, () => b & 0xff));
/** A `v128` of eight equal 16-bit lanes. */
const lanes8 = (values: readonly number[]): number[] => op.v128Const(values.flatMap((v) => [v & 0xff, (v >> 8) & 0xff]));

// Locals: parameter 0 is n.
const N = 0;
const P = 1; // byte address of the current block
const END = 2; // byte address after the last unit
const COUNT = 3; // line breaks found
const MASK = 4; // line-break lanes of the current block
const Q = 5; // byte address in the unit-by-unit check
const QEND = 6;
const REPORTED = 7; // class bits REPORT_BIT seen
const I32_LOCALS = 7;
const V0 = 8;
const V1 = 9;
const B = 10; // low bytes, saturated
const NL = 11;
const SEP = 12;
const PREV_SEP = 13;
const DOUBLE = 14;
const V128_LOCALS = 7;

// `v` (on the stack) with the lanes at and after `rem` (a local) replaced by 'a'.
const maskTail = (v: number, laneBase: number): number[] => [
  ...op.get(v),
  ...lanes8([0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61]),
  ...lanes8([0, 1, 2, 3, 4, 5, 6, 7].map((i) => i + laneBase)),
  ...op.get(Q), // Q holds the number of units left while the tail is masked
  ...op.i16x8Splat,
  ...op.i16x8LtS,
  ...op.v128Bitselect,
  ...op.set(v),
];

/**
 * Byte classes as nibble tables: byte `b` is in the class when `high[b >> 4] & low[b & 15]` is not
 * zero. Each entry of `members` is a set of bytes, written as a high nibble and the low nibbles
 * that go with it; each gets a bit of its own (at most eight sets).
 */
function nibbleTables(members: ReadonlyArray<readonly [number, readonly number[]]>): { high: number[]; low: number[] } {
  const high = new Array<number>(16).fill(0);
  const low = new Array<number>(16).fill(0);
  members.forEach(([hi, los], bit) => {
    high[hi] = (high[hi] as number) | (1 << bit);
    for (const lo of los) low[lo] = (low[lo] as number) | (1 << bit);
  });
  return { high, low };
}
const nibbles = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Suspect low bytes (saturated, so exact below U+0100): U+0001-U+0009, U+000B-U+001F and
 * U+0085-U+00A0. A line break (0x0A) is not a suspect, nor are 0x00 and 0xFF (what units from
 * U+0100 saturate to).
 */
const SUSPECT_LOW = nibbleTables([
  [0x0, [...nibbles(0x1, 0x9), ...nibbles(0xb, 0xf)]],
  [0x1, nibbles(0x0, 0xf)],
  [0x8, nibbles(0x5, 0xf)],
  [0x9, nibbles(0x0, 0xf)],
  [0xa, [0x0]],
]);
/** Suspect high bytes: 0x16, 0x20, 0x30 and 0xD8-0xDF (surrogates). */
const SUSPECT_HIGH = nibbleTables([
  [0x1, [0x6]],
  [0x2, [0x0]],
  [0x3, [0x0]],
  [0xd, nibbles(0x8, 0xf)],
]);

// Lanes of the byte vector in local `v` that are in the class of `tables`: non-zero where they are.
const nibbleClass = (v: number, tables: { high: number[]; low: number[] }): number[] => [
  ...op.v128Const(tables.high), ...op.get(v), ...op.i32Const(4), ...op.i8x16ShrU, ...op.i8x16Swizzle,
  ...op.v128Const(tables.low), ...op.get(v), ...bytes16(0x0f), ...op.v128And, ...op.i8x16Swizzle,
  ...op.v128And,
];

// Return -1 when the unit at byte address `address` (computed by `address`) is a separator or OTHER.
const rejectEdge = (address: number[]): number[] => [
  ...address, ...op.i32Load16U(0), ...op.i32Load8U(0), ...op.i32Const(SEPARATOR_BIT | OTHER_BIT), ...op.i32And,
  ...op.if, ...op.i32Const(-1), ...op.return, ...op.end,
];

const body: number[] = [
  // Neither end may be a separator (nor OTHER).
  ...rejectEdge(op.i32Const(UNITS_AT)),
  ...rejectEdge([...op.get(N), ...op.i32Const(1), ...op.i32Shl, ...op.i32Const(UNITS_AT - 2), ...op.i32Add]),
  // P = UNITS_AT; END = UNITS_AT + 2n
  ...op.i32Const(UNITS_AT), ...op.set(P),
  ...op.get(N), ...op.i32Const(1), ...op.i32Shl, ...op.i32Const(UNITS_AT), ...op.i32Add, ...op.set(END),
  ...op.block,
  ...op.loop,
  // while (P < END)
  ...op.get(P), ...op.get(END), ...op.i32GeU, ...op.brIf(1),
  ...op.get(P), ...op.v128Load(0), ...op.set(V0),
  ...op.get(P), ...op.v128Load(16), ...op.set(V1),
  // A last, partial block: units past the end become 'a'.
  ...op.get(END), ...op.get(P), ...op.i32Sub, ...op.i32Const(32), ...op.i32LtU,
  ...op.if,
  ...op.get(END), ...op.get(P), ...op.i32Sub, ...op.i32Const(1), ...op.i32ShrU, ...op.set(Q),
  ...maskTail(V0, 0),
  ...maskTail(V1, 8),
  ...op.end,
  ...op.get(V0), ...op.get(V1), ...op.i8x16NarrowI16x8U, ...op.set(B),
  // NL = B == '\n'; SEP = NL | B == ' '
  ...op.get(B), ...bytes16(0x0a), ...op.i8x16Eq, ...op.tee(NL),
  ...op.get(B), ...bytes16(0x20), ...op.i8x16Eq, ...op.v128Or, ...op.set(SEP),
  // DOUBLE |= SEP & (SEP shifted one lane up, lane 0 from PREV_SEP's lane 15)
  ...op.get(DOUBLE),
  ...op.get(SEP),
  ...op.get(PREV_SEP), ...op.get(SEP), ...op.i8x16Shuffle([15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]),
  ...op.v128And, ...op.v128Or, ...op.set(DOUBLE),
  ...op.get(SEP), ...op.set(PREV_SEP),
  // Suspects: low byte in [0x01, 0x1F] or [0x85, 0xA0], high byte 0x16, 0x20, 0x30 or in
  // [0xD8, 0xFD]; line breaks are not suspects.
  // Each byte is looked up by its two nibbles in a pair of 16-entry tables (swizzle); it is a
  // suspect when the two entries share a bit (see SUSPECT_LOW and SUSPECT_HIGH).
  ...nibbleClass(B, SUSPECT_LOW),
  ...op.get(V0), ...op.get(V1), ...op.i8x16Shuffle([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]),
  ...op.set(V0), // V0 is free now: the high bytes
  ...nibbleClass(V0, SUSPECT_HIGH),
  ...op.v128Or,
  ...op.v128AnyTrue,
  ...op.if,
  // Unit by unit through the class table: Q from P to min(P + 32, END).
  ...op.get(P), ...op.set(Q),
  ...op.get(P), ...op.i32Const(32), ...op.i32Add, ...op.tee(QEND), ...op.get(END), ...op.i32GeU,
  ...op.if, ...op.get(END), ...op.set(QEND), ...op.end,
  ...op.block,
  ...op.loop,
  ...op.get(Q), ...op.get(QEND), ...op.i32GeU, ...op.brIf(1),
  ...op.get(Q), ...op.i32Load16U(0), ...op.i32Load8U(0), ...op.tee(MASK), ...op.i32Const(OTHER_BIT), ...op.i32And,
  ...op.if, ...op.i32Const(-1), ...op.return, ...op.end,
  ...op.get(REPORTED), ...op.get(MASK), ...op.i32Or, ...op.set(REPORTED),
  ...op.get(Q), ...op.i32Const(2), ...op.i32Add, ...op.set(Q),
  ...op.br(0),
  ...op.end,
  ...op.end,
  ...op.end,
  // Line breaks: store ((P - UNITS_AT) / 2 + lane) for each set lane of NL.
  ...op.get(NL), ...op.i8x16Bitmask, ...op.tee(MASK),
  ...op.if,
  ...op.block,
  ...op.loop,
  ...op.get(MASK), ...op.i32Eqz, ...op.brIf(1),
  ...op.get(COUNT), ...op.i32Const(2), ...op.i32Shl,
  ...op.get(P), ...op.i32Const(UNITS_AT), ...op.i32Sub, ...op.i32Const(1), ...op.i32ShrU,
  ...op.get(MASK), ...op.i32Ctz, ...op.i32Add,
  ...op.i32Store(NEWLINES_AT),
  ...op.get(COUNT), ...op.i32Const(1), ...op.i32Add, ...op.set(COUNT),
  ...op.get(MASK), ...op.get(MASK), ...op.i32Const(1), ...op.i32Sub, ...op.i32And, ...op.set(MASK),
  ...op.br(0),
  ...op.end,
  ...op.end,
  ...op.end,
  ...op.get(P), ...op.i32Const(32), ...op.i32Add, ...op.set(P),
  ...op.br(0),
  ...op.end,
  ...op.end,
  // Two separators in a row anywhere: not plain.
  ...op.get(DOUBLE), ...op.v128AnyTrue,
  ...op.if, ...op.i32Const(-1), ...op.return, ...op.end,
  // COUNT, plus REPORT_FLAG when a REPORT unit was seen.
  ...op.get(REPORTED), ...op.i32Const(REPORT_BIT), ...op.i32And, ...op.i32Const(27), ...op.i32Shl, ...op.get(COUNT), ...op.i32Or,
  ...op.end,
];

const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

const locals = vec([
  [...uleb(I32_LOCALS), I32],
  [...uleb(V128_LOCALS), V128],
]);
const code = [...locals, ...body];

const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, vec([[0x60, ...vec([[I32]]), ...vec([[I32]])]])), // type 0: (i32) -> i32
  ...section(3, vec([[0]])), // function 0 has type 0
  ...section(5, vec([[0x00, ...uleb(MEMORY_PAGES)]])), // one memory, fixed minimum
  ...section(7, vec([
    [...name('memory'), 0x02, 0],
    [...name('scan'), 0x00, 0],
  ])),
  ...section(10, vec([[...uleb(code.length), ...code]])),
]);

/**
 * Instantiates the kernel, or returns `undefined` when this runtime cannot (no WebAssembly, or no
 * SIMD support on this CPU or engine).
 */
export function createWasmScanner(): WasmScanner | undefined {
  const api = wasmApi();
  if (api === undefined || !api.validate(MODULE)) return undefined;
  const instance = new api.Instance(new api.Module(MODULE), {});
  const { memory, scan } = instance.exports as { memory: WasmScanner['memory']; scan: (n: number) => number };
  return { memory, scan };
}

// The part of the WebAssembly JS API used here (the project's type libraries do not declare it).
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}

function wasmApi(): WasmApi | undefined {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  return typeof api === 'object' ? api : undefined;
}

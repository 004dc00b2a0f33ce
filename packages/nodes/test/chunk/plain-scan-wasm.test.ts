import { describe, expect, it } from 'vitest';
import { REPORT_BIT, REPORT_FLAG, NEWLINES_AT, OTHER_BIT, SEPARATOR_BIT, UNITS_AT, WINDOW_UNITS, createWasmScanner } from '../../src/chunk/plain-scan-wasm.js';

// A fresh kernel with a minimal class table of its own (within the prefilter's superset, as the
// kernel requires): ' ' and '\n' separators, '\t' OTHER, the high surrogate U+D83D REPORT.
function kernel() {
  const scanner = createWasmScanner();
  if (scanner === undefined) throw new Error('WebAssembly SIMD is unavailable in this runtime');
  const classes = new Uint8Array(scanner.memory.buffer, 0, 0x10000);
  classes[0x20] = SEPARATOR_BIT;
  classes[0x0a] = SEPARATOR_BIT;
  classes[0x09] = OTHER_BIT;
  classes[0xd83d] = REPORT_BIT;
  const units = new Uint16Array(scanner.memory.buffer, UNITS_AT, WINDOW_UNITS);
  const newlines = new Int32Array(scanner.memory.buffer, NEWLINES_AT, WINDOW_UNITS);
  return {
    // Writes `text` and fills the rest of its last two blocks with `after`, then scans `text`.
    scan(text: string, after = '\t'): number {
      for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
      for (let i = text.length; i < Math.min(WINDOW_UNITS, text.length + 32); i++) units[i] = after.charCodeAt(0);
      return scanner.scan(text.length);
    },
    newlines: (count: number) => Array.from(newlines.subarray(0, count)),
  };
}

describe('createWasmScanner', () => {
  it('follows its own class table: separators, OTHER and REPORT units', () => {
    const k = kernel();
    expect(k.scan('a b\nc')).toBe(1);
    expect(k.newlines(1)).toEqual([3]);
    expect(k.scan('a\tb')).toBe(-1);
    expect(k.scan('a \ud83d b')).toBe(REPORT_FLAG);
    expect(k.scan('\ud83d\n\ud83d')).toBe(REPORT_FLAG + 1);
    // Other units in the prefilter's superset (another surrogate, punctuation next to Python's
    // whitespace) are looked up one by one and pass when their class is 0.
    expect(k.scan('\ud800 \udfff \u2019 \u3001')).toBe(0);
    expect(k.scan('a  b')).toBe(-1);
    expect(k.scan(' a')).toBe(-1);
    expect(k.scan('a\n')).toBe(-1);
    // U+0909 and U+2020 share a byte with '\t' and ' ': the table decides, not the bytes.
    expect(k.scan('\u0909\u2020')).toBe(0);
  });

  it('ignores whatever lies past the text in the last block', () => {
    const k = kernel();
    for (let length = 1; length <= 48; length++) {
      const text = 'ab\ncd ef'.repeat(8).slice(0, length).replace(/^[ \n]|[ \n]$/g, 'x');
      const expected = text.includes('\n') ? [...text.matchAll(/\n/g)].length : 0;
      for (const after of ['\t', ' ', '\n', '\ud83d']) expect([length, after, k.scan(text, after)]).toEqual([length, after, expected]);
    }
  });

  it('lists every line break of a full window, across block boundaries', () => {
    const k = kernel();
    const text = 'x\n'.repeat(WINDOW_UNITS / 2 - 1) + 'xy';
    expect(text.length).toBe(WINDOW_UNITS);
    const count = k.scan(text);
    expect(count).toBe(WINDOW_UNITS / 2 - 1);
    expect(k.newlines(count)).toEqual(Array.from({ length: count }, (_, i) => 2 * i + 1));
  });
});

import { describe, expect, it } from 'vitest';
import { WINDOW_UNITS, createWasmScanner } from '../../src/chunk/plain-scan-wasm.js';
import { collapseWhitespace } from '../../src/chunk/python-text.js';
import { SURROGATE_FLAG, lastNewlines, newlineCount, plainSegment, scanPlain, scanPlainScalar, spliceSpaces } from '../../src/chunk/text-scan.js';

// Python's str.isspace() set, written out independently of the code under test.
const PY_WHITESPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
const PY_RUN = new RegExp(`[${PY_WHITESPACE}]+`);

/** Python's `" ".join(s.split())`. */
function pySplitJoin(s: string): string {
  return s
    .split(PY_RUN)
    .filter((w) => w !== '')
    .join(' ');
}

// The fast path's contract: no whitespace but single ' ' or '\n' between non-whitespace
// (U+202A-U+202E ride along with U+2028-U+202F); the result flags surrogate, private-use and
// noncharacter units, which the code-point codec must see.
const OFF_PATH = /[\t\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u3000]|[ \n]{2}|^[ \n]|[ \n]$/;
const SURROGATE_UNIT = /[\uD800-\uDFFF]/;

function expectedScan(text: string): { result: number; newlines: number[] } {
  if (OFF_PATH.test(text)) return { result: -1, newlines: [] };
  const newlines = [...text.matchAll(/\n/g)].map((m) => m.index as number);
  return { result: newlines.length + (SURROGATE_UNIT.test(text) ? SURROGATE_FLAG : 0), newlines };
}

type Scanner = (text: string) => number;
const SCANNERS: Array<[string, Scanner]> = [
  ['scanPlain', scanPlain],
  ['scanPlainScalar', scanPlainScalar],
];

function expectScan(scan: Scanner, text: string): void {
  const want = expectedScan(text);
  const got = scan(text);
  if (got !== want.result) expect({ text, got }).toEqual({ text, got: want.result });
  if (got > 0) expect(Array.from(lastNewlines().subarray(0, newlineCount(got)))).toEqual(want.newlines);
}

// Every Python whitespace character, JavaScript-only whitespace, surrogates (paired and lone),
// private-use and noncharacter units, their neighbours, and characters whose high or low byte looks
// like one of them (the SIMD prefilter narrows units to bytes).
const SPECIALS = [
  ...PY_WHITESPACE,
  '\u200b', '\u2027', '\u2030', '\u205e', '\u2060', '\u2fff', '\u3001', '\u30a2', '\u1681', '\u167f', '\u0084', '\u0086', '\u009f', '\u00a1',
  '\ufeff', '\u0000', '\u0020', '\u0120', '\u0a0a', '\u0a00', '\u2020', '\u0909', '\u0d0d', '\u1c1c', '\u8520', '\ua0a0', '\u00ff', '\u0100', '\u7fff', '\u8000',
  '😀', '𝒳', '\ud800', '\udbff', '\udc00', '\udfff', '\ud7ff', '\ue000', '\uf8ff', '\uf900', '\ufdcf', '\ufdd0', '\ufdef', '\ufdf0', '\ufffd', '\uffff',
  '\r\n', '  ', ' \n', '\n ', '\n\n',
];

describe('scanPlain', () => {
  it('runs on WebAssembly SIMD here, so the fast kernel is the one these tests check', () => {
    expect(createWasmScanner()).toBeDefined();
  });

  for (const [name, scan] of SCANNERS) {
    describe(name, () => {
      it('accepts normalised text and lists its line breaks', () => {
        expect(scan('word')).toBe(0);
        expect(scan('two words')).toBe(0);
        expect(scan('line one\nline two\nthree')).toBe(2);
        expect(Array.from(lastNewlines().subarray(0, 2))).toEqual([8, 17]);
        expect(scan('中文 ж é\nमानव')).toBe(1);
      });

      it('rejects tabs, non-breaking spaces, "\\r\\n", form feeds and repeated or edge separators', () => {
        for (const text of ['a\tb', 'a\xa0b', 'a\r\nb', 'a\fb', 'a  b', 'a\n\nb', 'a \nb', ' a', 'a ', '\na', 'a\n', '\u3000', 'x\u2009y']) {
          expect([text, scan(text)]).toEqual([text, -1]);
        }
      });

      it('flags astral, private-use and noncharacter units without leaving the fast path', () => {
        expect(scan('a😀b')).toBe(SURROGATE_FLAG);
        expect(scan('😀')).toBe(SURROGATE_FLAG);
        expect(scan('𑄝𑄬\n𑄇 \ue000 x')).toBe(SURROGATE_FLAG + 1);
        expect(scan('private \ue000 use')).toBe(0);
        expect(scan('lone \ud800 surrogate')).toBe(SURROGATE_FLAG);
        expect(scan('\ufdd0\t')).toBe(-1);
        expect(scan('plain\ntext')).toBe(1);
      });

      it('agrees with the contract for every special character at every position of two SIMD blocks', () => {
        for (const special of SPECIALS) {
          for (let length = 1; length <= 40; length++) {
            for (let at = 0; at + special.length <= length; at++) {
              const text = 'ab cd\nef gh ij kl mn op qr st uv wx yz ab cd'.slice(0, at) + special + 'x'.repeat(length);
              expectScan(scan, text.slice(0, Math.max(length, at + special.length)));
            }
          }
        }
      });

      it('finds two separators in a row across every block boundary', () => {
        for (let at = 1; at < 70; at++) {
          for (const pair of ['  ', ' \n', '\n ', '\n\n']) {
            expectScan(scan, `${'y'.repeat(at)}${pair}${'z'.repeat(70 - at)}`);
            expectScan(scan, `${'y z'.repeat(at).slice(0, at)}${pair}z`);
          }
        }
      });

      it('agrees with the contract on random texts', () => {
        const palette = ['a', 'b', 'é', '中', 'ж', ' ', ' ', '\n', 'word', ...SPECIALS];
        let seed = 11;
        const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
        for (let k = 0; k < 20000; k++) {
          const rate = 1 + (next() % 30);
          const length = 1 + (next() % 90);
          let text = '';
          while (text.length < length) text += next() % rate === 0 ? (palette[next() % palette.length] as string) : (['a', 'b', ' ', 'cd', '\n'][next() % 5] as string);
          expectScan(scan, text);
        }
      });
    });
  }

  it('classifies every UTF-16 code unit as the contract does, alone and in a full vector block', () => {
    for (const [name, scan] of SCANNERS) {
      for (let unit = 0; unit <= 0xffff; unit++) {
        const c = String.fromCharCode(unit);
        // One unit between letters, and the same unit at the end of a 16-unit block.
        for (const text of [`a${c}b`, `abcdefghijklmno${c}pq`]) {
          const got = scan(text);
          if (got !== expectedScan(text).result) expect({ name, unit: unit.toString(16), got }).toEqual({ name, unit: unit.toString(16), got: expectedScan(text).result });
        }
      }
    }
  });

  it('looks only at the text, not at what an earlier, longer text left in the buffer', () => {
    for (const [name, scan] of SCANNERS) {
      expect([name, scan('first text  with a double space and a tab\there')]).toEqual([name, -1]);
      expect([name, scan('first')]).toEqual([name, 0]);
      expect([name, scan('x\ny  \t'.repeat(40))]).toEqual([name, -1]);
      expect([name, scan('x\ny')]).toEqual([name, 1]);
    }
  });

  it('scans texts longer than the WebAssembly window with the scalar scanner, window by window', () => {
    const long = `${'lorem ipsum\ndolor '.repeat(Math.ceil((WINDOW_UNITS * 2) / 18))}end`;
    expectScan(scanPlain, long);
    // A doubled separator or a tab exactly at, before and after each window boundary.
    for (const at of [WINDOW_UNITS - 1, WINDOW_UNITS, WINDOW_UNITS + 1, 2 * WINDOW_UNITS - 1]) {
      for (const bad of ['  ', '\n\n', '\t', '😀']) {
        const text = long.slice(0, at) + bad + long.slice(at + bad.length);
        expectScan(scanPlain, text);
        expectScan(scanPlainScalar, text);
      }
    }
  });
});

describe('plainSegment', () => {
  it("is Python's \" \".join(s.split()) whenever it takes the fast path", () => {
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const words = ['alpha', 'β', '中文', 'x', '\n', ' ', 'émoji😀', '\t', '\xa0'];
    let fast = 0;
    for (let k = 0; k < 5000; k++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => words[next() % words.length] as string).join(next() % 3 === 0 ? '\n' : ' ');
      const segment = plainSegment(text);
      if (segment === undefined) {
        expect(expectedScan(text).result).toBe(-1);
        continue;
      }
      fast++;
      expect(segment).toBe(pySplitJoin(text));
      expect(segment).toBe(collapseWhitespace(text));
    }
    expect(fast).toBeGreaterThan(500);
  });

  it('returns a text without line breaks unchanged and splices the line breaks of the others into spaces', () => {
    const text = 'already normalised';
    expect(plainSegment(text)).toBe(text);
    expect(plainSegment('a\nb\nc')).toBe('a b c');
    expect(plainSegment('(Language)\nAll human beings are born free')).toBe('(Language) All human beings are born free');
  });

  it('splices from any offset of a position list', () => {
    expect(spliceSpaces('ab\ncd\nef', Int32Array.from([9, 9, 2, 5]), 2, 2)).toBe('ab cd ef');
    expect(spliceSpaces('ab\ncd', Int32Array.from([2]), 0, 1)).toBe('ab cd');
  });
});

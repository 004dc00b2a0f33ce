import { describe, expect, it } from 'vitest';
import { collapseWhitespace, isPyWhitespace, pyLstrip, pyRstrip, pyStrip } from '../../src/chunk/python-text.js';

describe('Python whitespace semantics', () => {
  it('uses str.isspace(), not JavaScript \\s', () => {
    expect(isPyWhitespace(0x1c)).toBe(true);
    expect(isPyWhitespace(0x85)).toBe(true);
    expect(isPyWhitespace(0x3000)).toBe(true);
    expect(isPyWhitespace(0xfeff)).toBe(false);
    expect(isPyWhitespace(0x41)).toBe(false);
  });

  it('strips like str.strip/lstrip/rstrip', () => {
    expect(pyStrip('\u00a0 a b \u2003\n')).toBe('a b');
    expect(pyLstrip('\x1c x ')).toBe('x ');
    expect(pyRstrip(' x \x85')).toBe(' x');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa');
  });

  it.each([
    ['', ''],
    ['   ', ''],
    ['abc', 'abc'],
    ['  a  b\n\nc\t', 'a b c'],
    ['a\u3000b\u00a0c', 'a b c'],
    ['line one\nline two', 'line one line two'],
    ['\ufeff x', '\ufeff x'],
  ])('collapses %j to %j', (input, expected) => {
    expect(collapseWhitespace(input)).toBe(expected);
  });

  it('returns the same string when nothing changes', () => {
    const s = 'already normal text';
    expect(collapseWhitespace(s)).toBe(s);
  });

  it('matches the definition on texts of words, spaces and line breaks, where only line breaks change', () => {
    expectDefinitionOnRandomStrings(['a', 'b', 'é', '中', '\x01', ' ', '\n'], 5, 3000, 16);
    expect(collapseWhitespace('one\ntwo three\nfour')).toBe('one two three four');
  });

  it('matches the definition split-on-whitespace-then-join on random strings', () => {
    expectDefinitionOnRandomStrings(['a', 'b', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', '\x1c', '\ufeff', 'é', '中'], 42, 2000, 12);
  });
});

// Python's str.split() whitespace, then ' '.join: the definition collapseWhitespace follows.
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `runs` seeded random strings of up to `maxLength - 1` pieces of `alphabet`, each against the definition. */
function expectDefinitionOnRandomStrings(alphabet: readonly string[], seed: number, runs: number, maxLength: number): void {
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < runs; i++) {
    const s = Array.from({ length: next() % maxLength }, () => alphabet[next() % alphabet.length]).join('');
    expect(collapseWhitespace(s)).toBe(s.split(PY_WHITESPACE).filter(Boolean).join(' '));
  }
}

/**
 * Python `str` whitespace semantics. `unstructured` chunker measures and splits text with
 * `str.split()` / `str.strip()`, whose whitespace set (`str.isspace`) differs from JavaScript's
 * `\s` (Python adds U+001C-U+001F and U+0085; JavaScript adds U+FEFF), so chunk boundaries only
 * match when we use Python's set.
 */

// One flag per code unit up to U+3000, the highest whitespace code point.
const WHITESPACE = (() => {
  const table = new Uint8Array(0x3001);
  for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]) table[c] = 1;
  for (let c = 0x2000; c <= 0x200a; c++) table[c] = 1;
  return table;
})();

/** True when the UTF-16 code unit `c` is whitespace for Python's `str.isspace()`. */
export function isPyWhitespace(c: number): boolean {
  return c <= 0x3000 && WHITESPACE[c] === 1;
}

/** Python `s.lstrip()`. */
export function pyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && isPyWhitespace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  let j = s.length;
  while (j > 0 && isPyWhitespace(s.charCodeAt(j - 1))) j--;
  return j === s.length ? s : s.slice(0, j);
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return pyRstrip(pyLstrip(s));
}

// A whitespace run that " ".join(s.split()) changes: one starting with whitespace other than a
// space, or a space followed by more whitespace. A lone space between words is left alone.
const CHANGED_RUN =
  /[\t\n\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*| [\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

// Text that `joinLines` cannot take: two spaces in a row, or Python whitespace other than " " and
// "\n".
const NOT_LINES = / {2}|[\t\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Python `" ".join(s.split())`: every whitespace run becomes one space, ends trimmed. */
export function collapseWhitespace(s: string): string {
  if (!NOT_LINES.test(s)) {
    const joined = joinLines(s);
    if (joined !== undefined) return joined;
  }
  return pyStrip(s).replace(CHANGED_RUN, ' ');
}

/**
 * `" ".join(s.split())` for a text without two spaces in a row and without Python whitespace other
 * than `" "` and `"\n"`, when it is what partitioners mostly emit: words separated by one space or
 * one line break, nothing at either end. Then the line breaks become spaces and nothing else
 * changes. `undefined` for any other such text.
 */
export function joinLines(s: string): string | undefined {
  if (s.charCodeAt(0) <= 0x20 || s.charCodeAt(s.length - 1) <= 0x20) return undefined;
  let lineBreak = s.indexOf('\n');
  if (lineBreak < 0) return s;
  // Slices of `s` joined by spaces: the result shares the characters of `s` instead of copying them.
  let out = '';
  let start = 0;
  while (lineBreak >= 0) {
    const after = s.charCodeAt(lineBreak + 1);
    if (s.charCodeAt(lineBreak - 1) === 0x20 || after === 0x20 || after === 0x0a) return undefined;
    out = `${out + s.slice(start, lineBreak)} `;
    start = lineBreak + 1;
    lineBreak = s.indexOf('\n', start);
  }
  return out + s.slice(start);
}

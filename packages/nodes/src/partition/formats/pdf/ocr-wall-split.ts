/**
 * OCR words cut at the cell walls of a scanned table. Once the ruling lines are painted out for
 * Tesseract, two cells' texts set close to a wall ("1,450|12") can come back as one word, which no
 * cell holds. A word running across a vertical ruling that spans its line is cut there, its letters
 * shared in proportion to the width on each side (Tesseract gives word boxes, not letter boxes).
 *
 * Pure functions over plain data, no run-time dependency on `@quarry/core`.
 */
import type { Box, TextFragment } from './layout-types.js';

// A wall closer to a word's end than this share of one letter's width is the word's own edge.
const MIN_SIDE_LETTERS = 0.5;

/** `fragments` with each one that crosses a vertical ruling of `rulings` cut at it (same units). */
export function splitAtWalls(fragments: readonly TextFragment[], rulings: readonly Box[]): TextFragment[] {
  const walls = rulings.filter((r) => r.x0 === r.x1 && r.y1 > r.y0);
  if (walls.length === 0) return [...fragments];
  return fragments.flatMap((f) => cut(f, walls));
}

function cut(f: TextFragment, walls: readonly Box[]): TextFragment[] {
  const n = [...f.text].length;
  if (n < 2) return [f];
  const letter = (f.x1 - f.x0) / n;
  const middle = (f.top + f.bottom) / 2;
  const wall = walls.find((w) => w.y0 <= middle && w.y1 >= middle && w.x0 > f.x0 + MIN_SIDE_LETTERS * letter && w.x0 < f.x1 - MIN_SIDE_LETTERS * letter);
  if (!wall) return [f];
  const chars = [...f.text];
  const at = Math.min(n - 1, Math.max(1, Math.round((wall.x0 - f.x0) / letter)));
  const left: TextFragment = { ...f, text: chars.slice(0, at).join(''), x1: wall.x0 };
  const right: TextFragment = { ...f, text: chars.slice(at).join(''), x0: wall.x0 };
  // The right piece may cross another wall.
  return [left, ...cut(right, walls)];
}

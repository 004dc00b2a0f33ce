/**
 * Light text on dark fills (a table's header row printed white on a dark band, a banner), made
 * readable for OCR: Tesseract binarises a page as a whole and reads nothing in such a band. Each
 * band is found on a coarse grid of tiles (mostly dark tiles, connected, nearly filling their
 * bounding box), and when it holds text lighter than itself its pixels are inverted and stretched so
 * the band turns white and its text black. The thin light lines that part a band into cells would
 * turn into black bars, so they are painted white and given back as cell walls, with the band's
 * edges, for the table finders (as a PDF's filled rectangles give theirs).
 *
 * Pure functions over pixels, no run-time dependency on `@quarry/core`.
 */
import type { Box } from './formats/pdf/layout-types.js';
import { luma } from './luma.js';

/** Pixels darker than this (luma, 0-255) may belong to a fill: mid-grey bands and darker. */
const FILL_DARK = 200;
// A tile is part of a fill when this share of its pixels is dark (white letters cover less).
const MIN_TILE_DARK = 0.5;
// A fill's dark tiles cover at least this share of its bounding box.
const MIN_BOX_SHARE = 0.8;
// Text on a fill is this much lighter than the fill (luma levels) ...
const MIN_CONTRAST = 60;
// ... and covers this share of it: less is no text, more is a light area with dark strokes.
const MIN_LIGHT_SHARE = 0.01;
const MAX_LIGHT_SHARE = 0.45;
// Of the pixels not light, this share at least lies near the fill's level: a flat fill, not a photo.
const MIN_FLAT_SHARE = 0.7;
const FLAT_RANGE = 40;
// A light column (row) of a band lit over this share of the band's height (width) is a cell wall.
const MIN_WALL_SHARE = 0.85;

/** The side of the tiles fills are looked for on: about 3 points on a page rendered at 200 dpi. */
function tileSize(width: number, height: number): number {
  return Math.max(4, Math.round(Math.min(width, height) / 200));
}

/** The smallest fill taken, in pixels: wide as a header cell, thicker than a rule. */
function minFill(width: number, height: number): { width: number; height: number } {
  const t = tileSize(width, height);
  return { width: 8 * t, height: 3 * t };
}

/** One dark band with light text, in the image's pixels, and the cell walls found across it. */
export interface DarkFill {
  box: Box;
  /** The fill's level (luma of its median pixel). */
  level: number;
  /** Light lines parting the band into cells: vertical ones (x) and horizontal ones (y). */
  columns: number[];
  rows: number[];
}

/** The image's luma plane: the pixels themselves when they are grey. */
function lumaOf(pixels: Uint8Array | Uint8ClampedArray, n: number, channels: 1 | 4): Uint8Array | Uint8ClampedArray {
  if (channels === 1) return pixels;
  const plane = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 4) plane[i] = luma(pixels[j]!, pixels[j + 1]!, pixels[j + 2]!);
  return plane;
}

/**
 * The dark bands of an image that hold light text (see the module comment), in the image's pixels.
 *
 * @param pixels the image, row by row: one luma byte per pixel (`channels` 1) or RGBA (`channels` 4).
 */
export function findDarkFills(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 4): DarkFill[] {
  const n = width * height;
  if (pixels.length < n * channels) throw new RangeError(`findDarkFills: ${pixels.length} bytes cannot hold ${width}x${height}x${channels}`);
  const grey = lumaOf(pixels, n, channels);
  const t = tileSize(width, height);
  const cols = Math.ceil(width / t);
  const rows = Math.ceil(height / t);
  const darkCount = new Uint32Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / t) * cols;
    for (let x = 0; x < width; x++) if (grey[y * width + x]! < FILL_DARK) darkCount[row + Math.floor(x / t)]!++;
  }
  const dark = new Uint8Array(cols * rows);
  for (let ty = 0; ty < rows; ty++) {
    const h = Math.min(t, height - ty * t);
    for (let tx = 0; tx < cols; tx++) dark[ty * cols + tx] = darkCount[ty * cols + tx]! >= MIN_TILE_DARK * h * Math.min(t, width - tx * t) ? 1 : 0;
  }
  const min = minFill(width, height);
  const fills: DarkFill[] = [];
  const seen = new Uint8Array(cols * rows);
  const queue = new Int32Array(cols * rows);
  for (let start = 0; start < dark.length; start++) {
    if (!dark[start] || seen[start]) continue;
    // The connected dark tiles from here (4-neighbours), and their bounding box.
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    seen[start] = 1;
    let x0 = cols;
    let y0 = rows;
    let x1 = -1;
    let y1 = -1;
    while (head < tail) {
      const k = queue[head++]!;
      const tx = k % cols;
      const ty = (k - tx) / cols;
      x0 = Math.min(x0, tx);
      x1 = Math.max(x1, tx);
      y0 = Math.min(y0, ty);
      y1 = Math.max(y1, ty);
      for (const m of [tx > 0 ? k - 1 : -1, tx + 1 < cols ? k + 1 : -1, ty > 0 ? k - cols : -1, ty + 1 < rows ? k + cols : -1]) {
        if (m >= 0 && dark[m] && !seen[m]) {
          seen[m] = 1;
          queue[tail++] = m;
        }
      }
    }
    const tiles = tail;
    const boxTiles = (x1 - x0 + 1) * (y1 - y0 + 1);
    if (tiles < MIN_BOX_SHARE * boxTiles) continue;
    const box = { x0: x0 * t, y0: y0 * t, x1: Math.min(width, (x1 + 1) * t), y1: Math.min(height, (y1 + 1) * t) };
    if (box.x1 - box.x0 < min.width || box.y1 - box.y0 < min.height) continue;
    const fill = lightTextFill(grey, width, trimmed(grey, width, box));
    if (fill) fills.push(fill);
  }
  return fills;
}

/**
 * The box with each side moved to the fill's true edge: tiles overhang it by up to a tile. A side
 * moves inwards past rows (columns) less than half dark.
 */
function trimmed(grey: Uint8Array | Uint8ClampedArray, width: number, box: Box): Box {
  let { x0, y0, x1, y1 } = box;
  const rowShare = (y: number): number => {
    let d = 0;
    for (let x = x0; x < x1; x++) if (grey[y * width + x]! < FILL_DARK) d++;
    return d / (x1 - x0);
  };
  const columnShare = (x: number): number => {
    let d = 0;
    for (let y = y0; y < y1; y++) if (grey[y * width + x]! < FILL_DARK) d++;
    return d / (y1 - y0);
  };
  while (y1 - y0 > 1 && rowShare(y0) < 0.5) y0++;
  while (y1 - y0 > 1 && rowShare(y1 - 1) < 0.5) y1--;
  while (x1 - x0 > 1 && columnShare(x0) < 0.5) x0++;
  while (x1 - x0 > 1 && columnShare(x1 - 1) < 0.5) x1--;
  return { x0, y0, x1, y1 };
}

/** The fill in `box` when it is flat and holds light text (see the constants), else undefined. */
function lightTextFill(grey: Uint8Array | Uint8ClampedArray, width: number, box: Box): DarkFill | undefined {
  const histogram = new Uint32Array(256);
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) histogram[grey[y * width + x]!]!++;
  const total = (box.x1 - box.x0) * (box.y1 - box.y0);
  // The fill's level: the median of its dark pixels.
  let darkTotal = 0;
  for (let v = 0; v < FILL_DARK; v++) darkTotal += histogram[v]!;
  let level = 0;
  for (let v = 0, seen = 0; v < FILL_DARK; v++) {
    seen += histogram[v]!;
    if (seen * 2 >= darkTotal) {
      level = v;
      break;
    }
  }
  let light = 0;
  for (let v = level + MIN_CONTRAST; v < 256; v++) light += histogram[v]!;
  let flat = 0;
  for (let v = Math.max(0, level - FLAT_RANGE); v <= Math.min(255, level + FLAT_RANGE); v++) flat += histogram[v]!;
  if (light < MIN_LIGHT_SHARE * total || light > MAX_LIGHT_SHARE * total || flat < MIN_FLAT_SHARE * (total - light)) return undefined;
  const lit = (x: number, y: number): boolean => grey[y * width + x]! >= level + MIN_CONTRAST;
  const columns: number[] = [];
  for (let x = box.x0; x < box.x1; x++) {
    let n = 0;
    for (let y = box.y0; y < box.y1; y++) if (lit(x, y)) n++;
    if (n >= MIN_WALL_SHARE * (box.y1 - box.y0)) columns.push(x);
  }
  const rows: number[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    let n = 0;
    for (let x = box.x0; x < box.x1; x++) if (lit(x, y)) n++;
    if (n >= MIN_WALL_SHARE * (box.x1 - box.x0)) rows.push(y);
  }
  return { box, level, columns, rows };
}

/**
 * Turns each fill's band white and its text black, in place: luma at the fill's level or darker
 * becomes white, white becomes black, in between in proportion; its cell walls are painted white.
 */
export function invertDarkFills(pixels: Uint8Array | Uint8ClampedArray, width: number, channels: 1 | 4, fills: readonly DarkFill[]): void {
  const lumaAt = (i: number): number => (channels === 1 ? pixels[i]! : luma(pixels[4 * i]!, pixels[4 * i + 1]!, pixels[4 * i + 2]!));
  const set = (i: number, v: number): void => {
    if (channels === 1) pixels[i] = v;
    else pixels.fill(v, 4 * i, 4 * i + 3);
  };
  for (const { box, level, columns, rows } of fills) {
    const span = Math.max(1, 255 - level);
    for (let y = box.y0; y < box.y1; y++) {
      for (let x = box.x0; x < box.x1; x++) {
        const i = y * width + x;
        const v = lumaAt(i);
        set(i, v <= level ? 255 : Math.max(0, Math.round(255 - ((v - level) * 255) / span)));
      }
    }
    for (const x of columns) for (let y = box.y0; y < box.y1; y++) set(y * width + x, 255);
    for (const y of rows) for (let x = box.x0; x < box.x1; x++) set(y * width + x, 255);
  }
}

/**
 * A fill's edges and cell walls as rulings (zero-thickness boxes along their centre lines, the form
 * `rulings.ts` takes), in the image's pixels: a run of neighbouring light columns (rows) is one wall.
 */
export function fillRulings(fills: readonly DarkFill[]): Box[] {
  const out: Box[] = [];
  for (const { box, columns, rows } of fills) {
    out.push({ x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y0 }, { x0: box.x0, x1: box.x1, y0: box.y1, y1: box.y1 });
    out.push({ x0: box.x0, x1: box.x0, y0: box.y0, y1: box.y1 }, { x0: box.x1, x1: box.x1, y0: box.y0, y1: box.y1 });
    for (const [from, to] of runsOf(columns)) out.push({ x0: (from + to + 1) / 2, x1: (from + to + 1) / 2, y0: box.y0, y1: box.y1 });
    for (const [from, to] of runsOf(rows)) out.push({ x0: box.x0, x1: box.x1, y0: (from + to + 1) / 2, y1: (from + to + 1) / 2 });
  }
  return out;
}

/** Runs of consecutive integers of an ascending list, as [first, last] pairs. */
function runsOf(values: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && v === last[1] + 1) last[1] = v;
    else runs.push([v, v]);
  }
  return runs;
}

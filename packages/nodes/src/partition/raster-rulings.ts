/**
 * Ruling lines read from a page image (a scan, a photo of a form): the raster counterpart of the
 * lines a PDF's drawing operations give, so the ruled-table finders of the PDF layout can rebuild a
 * scanned table's grid. As Camelot's lattice reading does with morphology: the image is binarised,
 * long runs of dark pixels along rows (or columns) are kept, runs in neighbouring rows that cover the
 * same extent form one line, and areas thicker than a rule (a shaded header, a bar) give their edges. Letter strokes
 * are far shorter than {@link minRulingLength}.
 *
 * Pure functions over pixels, no run-time dependency on `@quarry/core`.
 */
import type { Box } from './formats/pdf/layout-types.js';
import { fillRulings, findDarkFills, invertDarkFills } from './dark-fills.js';
import { luma } from './luma.js';
import { eraseRulingLines, maxLineThickness } from './ruling-lines.js';

/**
 * Pixels darker than this (luma, 0-255) may belong to a line: thin grey rules (half a point of 50%
 * grey, as word processors draw table borders) come out at 130-190 once anti-aliased.
 */
const DARK = 200;
// Pieces of one line further apart than this (pixels, along the line) stay two rulings.
const MAX_BREAK = 2;

/**
 * The shortest run taken for a ruling: half an inch at 200 dpi (a heading's letters run together
 * less), and a twentieth of the image's short side on larger images.
 */
function minRulingLength(width: number, height: number): number {
  return Math.max(100, Math.round(Math.min(width, height) / 20));
}

/**
 * The horizontal and vertical ruling lines of an image, each as a zero-thickness box along its
 * centre line (the form `rulings.ts` takes), in the image's pixels; a filled area gives its edges.
 *
 * @param pixels the image, row by row: one luma byte per pixel (`channels` 1) or RGBA (`channels` 4).
 */
export function findRasterRulings(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 4): Box[] {
  const n = width * height;
  if (pixels.length < n * channels) throw new RangeError(`findRasterRulings: ${pixels.length} bytes cannot hold ${width}x${height}x${channels}`);
  const dark = new Uint8Array(n);
  if (channels === 1) for (let i = 0; i < n; i++) dark[i] = pixels[i]! < DARK ? 1 : 0;
  else for (let i = 0, j = 0; i < n; i++, j += 4) dark[i] = luma(pixels[j]!, pixels[j + 1]!, pixels[j + 2]!) < DARK ? 1 : 0;
  const minRun = minRulingLength(width, height);
  const maxThick = maxLineThickness(width, height);
  const horizontal = linesAlong(dark, width, height, true, minRun, maxThick);
  const vertical = linesAlong(dark, width, height, false, minRun, maxThick);
  return [...horizontal.map((l) => ({ x0: l.from, x1: l.to, y0: l.pos, y1: l.pos })), ...vertical.map((l) => ({ x0: l.pos, x1: l.pos, y0: l.from, y1: l.to }))];
}

// How far beside a band (pixels) it must be mostly light, and how dark it may be there: on one side
// (text set close to a rule), and on both (a long run through the middle of a word).
const BESIDE = 2;
const MAX_BESIDE_ONE = 0.5;
const MAX_BESIDE_BOTH = 0.8;

// A filled area framed by its edges is this many times the shortest ruling long at least.
const MIN_AREA_RUNS = 3;
// Runs of neighbouring rows overlapping by this share of the longer one are one band.
const SAME_EXTENT = 0.8;

// Anti-aliasing next to a ruling, darker than this, is erased with it.
const FRINGE = 224;

/**
 * Paints the rulings {@link findRasterRulings} found white, in place, with the anti-aliased fringe
 * around them, so Tesseract does not read a cell wall as `|`, `[` or `(`. `eraseRulingLines` only
 * erases rules at least an eighth of the image long, which a short table's walls are not.
 */
function eraseRasterRulings(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 4, rulings: readonly Box[]): void {
  const reach = Math.ceil(maxLineThickness(width, height) / 2) + 1;
  const paint = (x: number, y: number): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = y * width + x;
    if (channels === 1) {
      if (pixels[i]! < FRINGE) pixels[i] = 255;
    } else if (luma(pixels[4 * i]!, pixels[4 * i + 1]!, pixels[4 * i + 2]!) < FRINGE) pixels.fill(255, 4 * i, 4 * i + 3);
  };
  for (const r of rulings) {
    if (r.y0 === r.y1) {
      const y = Math.floor(r.y0);
      for (let x = Math.floor(r.x0); x < Math.ceil(r.x1); x++) for (let d = -reach; d <= reach; d++) paint(x, y + d);
    } else {
      const x = Math.floor(r.x0);
      for (let y = Math.floor(r.y0); y < Math.ceil(r.y1); y++) for (let d = -reach; d <= reach; d++) paint(x + d, y);
    }
  }
}

/**
 * Readies a page image for OCR, in place: finds its rulings ({@link findRasterRulings}), paints
 * them out ({@link eraseRasterRulings}) and then the long rules `eraseRulingLines` takes. Returns the
 * rulings found, in the image's pixels, for the table finders.
 */
export function takeOutRulings(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 4): Box[] {
  const rulings = findRasterRulings(pixels, width, height, channels);
  // Light text on dark bands turned dark on white before the rulings go (`dark-fills.ts`).
  const fills = findDarkFills(pixels, width, height, channels);
  invertDarkFills(pixels, width, channels, fills);
  eraseRasterRulings(pixels, width, height, channels, rulings);
  eraseRulingLines(pixels, width, height, channels);
  return [...rulings, ...fillRulings(fills)];
}

interface Band {
  /** First and last row (or column) across the line. */
  first: number;
  last: number;
  from: number;
  to: number;
}

/**
 * Lines along rows (`alongRows`) or columns: runs of at least `minRun` dark pixels, grouped with the
 * overlapping runs of the next row into bands, kept when at most `maxThick` thick; returned with
 * their centre position and extent.
 */
function linesAlong(
  dark: Uint8Array,
  width: number,
  height: number,
  alongRows: boolean,
  minRun: number,
  maxThick: number,
): { pos: number; from: number; to: number }[] {
  const lines = alongRows ? height : width;
  const length = alongRows ? width : height;
  const step = alongRows ? 1 : width;
  const done: Band[] = [];
  let open: Band[] = [];
  for (let l = 0; l < lines; l++) {
    const base = alongRows ? l * width : l;
    const runs: { from: number; to: number }[] = [];
    let k = 0;
    while (k < length) {
      if (dark[base + k * step] === 0) {
        k++;
        continue;
      }
      let end = k;
      // A one-pixel break (a faint spot of a scanned line) does not end the run.
      while (end < length && (dark[base + end * step] === 1 || (end + MAX_BREAK < length && dark[base + (end + MAX_BREAK) * step] === 1))) end++;
      if (end - k >= minRun) runs.push({ from: k, to: end - 1 });
      k = end;
    }
    const next: Band[] = [];
    for (const r of runs) {
      const band = open.find((b) => b.last === l - 1 && alike(b, r));
      if (band) {
        band.last = l;
        band.from = Math.min(band.from, r.from);
        band.to = Math.max(band.to, r.to);
        if (!next.includes(band)) next.push(band);
      } else next.push({ first: l, last: l, from: r.from, to: r.to });
    }
    for (const b of open) if (!next.includes(b)) done.push(b);
    open = next;
  }
  done.push(...open);
  const out: { pos: number; from: number; to: number }[] = [];
  for (const b of done) {
    if (!clearBeside(dark, width, b, alongRows, lines)) continue;
    // A filled area (a shaded header) is framed by its edges, as a filled rectangle of a PDF is.
    if (b.last - b.first + 1 > maxThick) {
      // The stems of big letters are thick too, but not this long.
      if (b.to - b.from + 1 >= MIN_AREA_RUNS * minRun) out.push({ pos: b.first, from: b.from, to: b.to + 1 }, { pos: b.last + 1, from: b.from, to: b.to + 1 });
    } else out.push({ pos: (b.first + b.last + 1) / 2, from: b.from, to: b.to + 1 });
  }
  return out;
}

/**
 * Whether a run continues a band of the row before: their extents nearly agree. A rule crossing a
 * shaded area is longer than the area's runs beside it, so it stays a line of its own.
 */
function alike(b: Band, r: { from: number; to: number }): boolean {
  const overlap = Math.min(b.to, r.to) - Math.max(b.from, r.from) + 1;
  return overlap >= SAME_EXTENT * Math.max(b.to - b.from + 1, r.to - r.from + 1);
}

/**
 * Whether the rows (or columns) just beside a band are mostly light: a rule stands apart from what
 * is around it, while the letters of a word set tight (a small or blurred scan) make a long dark
 * run in their middle with their strokes above and below it.
 */
function clearBeside(dark: Uint8Array, width: number, b: Band, alongRows: boolean, lines: number): boolean {
  const share = (l: number): number => {
    if (l < 0 || l >= lines) return 0;
    let n = 0;
    for (let k = b.from; k <= b.to; k++) n += dark[alongRows ? l * width + k : k * width + l]!;
    return n / (b.to - b.from + 1);
  };
  const before = share(b.first - BESIDE);
  const after = share(b.last + BESIDE);
  return Math.max(before, after) <= MAX_BESIDE_ONE && before + after <= MAX_BESIDE_BOTH;
}

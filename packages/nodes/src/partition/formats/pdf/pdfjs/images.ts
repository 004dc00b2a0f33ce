/**
 * Embedded images and ruling lines of a page, from pdf.js's operator list: every image-painting
 * operator draws the unit square through the current transformation matrix, so tracking
 * `save`/`restore`/`transform` (and form XObjects, which push their own matrix) gives each image's
 * box on the page; painted paths (`constructPath`) give the straight lines and rectangles tables
 * are ruled with.
 */
import type { Box } from '../layout-types.js';
import { rulingsOfPath, type PathPaint } from '../rulings.js';
import type { PdfjsModule, PdfPage } from './load.js';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [m[0] * a + m[2] * b, m[1] * a + m[3] * b, m[0] * c + m[2] * d, m[1] * c + m[3] * d, m[0] * e + m[2] * f + m[4], m[1] * e + m[3] * f + m[5]];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

// Images smaller than this (points, either side) are bullets, rules or decorations.
const MIN_IMAGE_SIDE = 16;

/**
 * Boxes (page points, top-left origin, clipped to the page) of the images painted on a page,
 * without duplicates and without images too small to be figures.
 */
export async function findPageImages(page: PdfPage, pdfjs: PdfjsModule): Promise<Box[]> {
  return (await findPageGraphics(page, pdfjs)).images;
}

/** What {@link findPageGraphics} finds on a page. */
export interface PageGraphics {
  /** Image boxes, as {@link findPageImages} gives them. */
  images: Box[];
  /** Axis-aligned painted lines and rectangle edges (page points, top-left origin), unmerged. */
  rulings: Box[];
}

// pdf.js path drawing codes inside a `constructPath` operation's data.
const DRAW_MOVE = 0;
const DRAW_LINE = 1;
const DRAW_CURVE = 2;
const DRAW_QUAD = 3;
const DRAW_CLOSE = 4;

/** Images and ruling lines of a page, from one walk of its operator list. */
export async function findPageGraphics(page: PdfPage, pdfjs: PdfjsModule): Promise<PageGraphics> {
  const viewport = page.getViewport({ scale: 1 });
  const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  const OPS = pdfjs.OPS;
  const paintOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintSolidColorImageMask,
  ]);
  const stack: Matrix[] = [];
  let ctm: Matrix = [...IDENTITY];
  const boxes: Box[] = [];
  const rulings: Box[] = [];
  const vt = viewport.transform as number[];
  const stroke = new Set<number>([OPS.stroke, OPS.closeStroke]);
  const fill = new Set<number>([OPS.fill, OPS.eoFill]);
  const both = new Set<number>([OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i]!;
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? [...IDENTITY];
    else if (fn === OPS.transform && args) ctm = multiply(ctm, args as number[]);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const m = args?.[0];
      if (Array.isArray(m) && m.length === 6) ctm = multiply(ctm, m as number[]);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? [...IDENTITY];
    else if (fn === OPS.beginGroup) {
      stack.push(ctm);
      const m = (args?.[0] as { matrix?: number[] } | undefined)?.matrix;
      if (Array.isArray(m) && m.length === 6) ctm = multiply(ctm, m);
    } else if (fn === OPS.endGroup) ctm = stack.pop() ?? [...IDENTITY];
    else if (paintOps.has(fn)) {
      const box = unitSquareBox(multiply(vt as Matrix, ctm), viewport.width, viewport.height);
      if (box) boxes.push(box);
    } else if (fn === OPS.constructPath && args) {
      const op = args[0] as number;
      const paint: PathPaint | undefined = stroke.has(op) ? 'stroke' : fill.has(op) ? 'fill' : both.has(op) ? 'both' : undefined;
      const data = (args[1] as unknown[] | undefined)?.[0];
      if (paint && data instanceof Float32Array)
        rulings.push(...rulingsOfPath(subpaths(data, multiply(vt as Matrix, ctm)), paint, viewport.width, viewport.height));
    }
  }
  return { images: dedupe(boxes), rulings };
}

/**
 * A `constructPath` operation's data as subpaths of page points, or `undefined` for a subpath
 * with a curve (curves do not rule tables).
 */
function subpaths(data: Float32Array, m: Matrix): ([number, number][] | undefined)[] {
  const out: ([number, number][] | undefined)[] = [];
  let current: [number, number][] | undefined;
  let curved = false;
  const end = (): void => {
    if (current && current.length >= 2) out.push(curved ? undefined : current);
    current = undefined;
    curved = false;
  };
  for (let i = 0; i < data.length; ) {
    const code = data[i++];
    if (code === DRAW_MOVE) {
      end();
      current = [apply(m, data[i]!, data[i + 1]!)];
      i += 2;
    } else if (code === DRAW_LINE) {
      (current ??= []).push(apply(m, data[i]!, data[i + 1]!));
      i += 2;
    } else if (code === DRAW_CURVE) {
      curved = true;
      i += 6;
    } else if (code === DRAW_QUAD) {
      curved = true;
      i += 4;
    } else if (code === DRAW_CLOSE) {
      if (current && current.length >= 2) current.push(current[0]!);
      end();
    } else break;
  }
  end();
  return out;
}

function unitSquareBox(m: Matrix, width: number, height: number): Box | undefined {
  const pts = [apply(m, 0, 0), apply(m, 1, 0), apply(m, 1, 1), apply(m, 0, 1)];
  const box = {
    x0: Math.max(0, Math.min(...pts.map((p) => p[0]))),
    y0: Math.max(0, Math.min(...pts.map((p) => p[1]))),
    x1: Math.min(width, Math.max(...pts.map((p) => p[0]))),
    y1: Math.min(height, Math.max(...pts.map((p) => p[1]))),
  };
  if (box.x1 - box.x0 < MIN_IMAGE_SIDE || box.y1 - box.y0 < MIN_IMAGE_SIDE) return undefined;
  return box;
}

function dedupe(boxes: Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes) {
    if (!out.some((o) => Math.abs(o.x0 - b.x0) < 1 && Math.abs(o.y0 - b.y0) < 1 && Math.abs(o.x1 - b.x1) < 1 && Math.abs(o.y1 - b.y1) < 1)) out.push(b);
  }
  return out;
}

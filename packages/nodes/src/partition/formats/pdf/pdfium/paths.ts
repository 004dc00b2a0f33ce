/**
 * The ruling lines of a page from PDFium's page objects: path objects' straight segments and
 * rectangles, through each object's matrix (and the matrices of the form XObjects holding it), in
 * the displayed page's frame. The same pieces `pdfjs/images.ts` reads from pdf.js's operator list,
 * so both engines find the same ruled tables.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */
import type { Box } from '../layout-types.js';
import { rulingsOfPath, type PathPaint } from '../rulings.js';
import type { Pdfium } from './module.js';

type Matrix = readonly [number, number, number, number, number, number];

// PDFium's page object types and path segment types.
const FPDF_PAGEOBJ_PATH = 2;
const FPDF_PAGEOBJ_FORM = 5;
const FPDF_SEGMENT_BEZIERTO = 1;
const FPDF_SEGMENT_MOVETO = 2;
// Paths of more segments are drawings (maps, charts' curves), not rules; pages of more objects
// are read for their text only: the lines of a table are a few hundred objects at most.
const MAX_PATH_SEGMENTS = 64;
const MAX_PAGE_OBJECTS = 20000;
// Form XObjects nest; deeper ones are not followed.
const MAX_FORM_DEPTH = 4;

function multiply(m: Matrix, n: Matrix): Matrix {
  // m applied first, then n (row-vector convention, as PDF matrices).
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

/**
 * The page's painted straight lines and rectangle edges as zero-thickness boxes in the displayed
 * page's frame; `view` maps user space to it (see `text.ts`).
 */
export function readPdfiumRulings(pdfium: Pdfium, page: number, view: readonly number[], width: number, height: number): Box[] {
  const { x } = pdfium;
  const count = x.FPDFPage_CountObjects(page);
  if (count > MAX_PAGE_OBJECTS) return [];
  const out: Box[] = [];
  const v = view as unknown as Matrix;
  for (let i = 0; i < count; i++) visit(pdfium, x.FPDFPage_GetObject(page, i), v, 0, out, width, height);
  return out;
}

function visit(pdfium: Pdfium, obj: number, outer: Matrix, depth: number, out: Box[], width: number, height: number): void {
  const { x } = pdfium;
  if (!obj) return;
  const type = x.FPDFPageObj_GetType(obj);
  if (type === FPDF_PAGEOBJ_FORM) {
    if (depth >= MAX_FORM_DEPTH) return;
    const m = multiply(matrixOf(pdfium, obj), outer);
    const n = x.FPDFFormObj_CountObjects(obj);
    for (let i = 0; i < n; i++) visit(pdfium, x.FPDFFormObj_GetObject(obj, i), m, depth + 1, out, width, height);
    return;
  }
  if (type !== FPDF_PAGEOBJ_PATH) return;
  const segments = x.FPDFPath_CountSegments(obj);
  if (segments < 2 || segments > MAX_PATH_SEGMENTS) return;
  const { scratch } = pdfium;
  if (!x.FPDFPath_GetDrawMode(obj, scratch, scratch + 4)) return;
  const i32 = new Int32Array(pdfium.u8().buffer, scratch, 2);
  const filled = i32[0] !== 0;
  const stroked = i32[1] !== 0;
  if (!filled && !stroked) return;
  const paint: PathPaint = filled && stroked ? 'both' : filled ? 'fill' : 'stroke';
  const m = multiply(matrixOf(pdfium, obj), outer);
  const subpaths: ([number, number][] | undefined)[] = [];
  let current: [number, number][] | undefined;
  let curved = false;
  const end = (): void => {
    if (current && current.length >= 2) subpaths.push(curved ? undefined : current);
    current = undefined;
    curved = false;
  };
  for (let s = 0; s < segments; s++) {
    const seg = x.FPDFPath_GetPathSegment(obj, s);
    if (!seg || !x.FPDFPathSegment_GetPoint(seg, scratch, scratch + 4)) continue;
    const f = pdfium.f32();
    const px = f[scratch >> 2]!;
    const py = f[(scratch >> 2) + 1]!;
    const point: [number, number] = [m[0] * px + m[2] * py + m[4], m[1] * px + m[3] * py + m[5]];
    const kind = x.FPDFPathSegment_GetType(seg);
    if (kind === FPDF_SEGMENT_MOVETO) {
      end();
      current = [point];
    } else {
      if (kind === FPDF_SEGMENT_BEZIERTO) curved = true;
      (current ??= []).push(point);
    }
    if (x.FPDFPathSegment_GetClose(seg) && current) {
      current.push(current[0]!);
      end();
    }
  }
  end();
  out.push(...rulingsOfPath(subpaths, paint, width, height));
}

/** An object's matrix (identity when PDFium gives none). */
function matrixOf(pdfium: Pdfium, obj: number): Matrix {
  const { x, scratch } = pdfium;
  if (!x.FPDFPageObj_GetMatrix(obj, scratch)) return [1, 0, 0, 1, 0, 0];
  const f = pdfium.f32();
  const o = scratch >> 2;
  return [f[o]!, f[o + 1]!, f[o + 2]!, f[o + 3]!, f[o + 4]!, f[o + 5]!];
}

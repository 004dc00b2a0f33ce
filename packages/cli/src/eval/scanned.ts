/**
 * Scanned-table evaluation (`quarry eval --scanned`, and the fidelity bench's `--scanned` mode): the
 * pages of born-digital PDFs that hold reference tables are rendered to grey 200 dpi scans
 * (`scanPdfPages` of @quarry/nodes) and written as PNGs or as image-only PDF pages (pdf-lib: the picture
 * over a page of the source page's size, no text layer), so every word partitioned from them comes
 * from OCR; the outputs of a document's pages are then joined into one element array, each element on
 * the page it was rendered from, and scored against the document's reference as any output is.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { UserError } from '../user-error.js';
import { readReference, referenceNames } from './evaluate.js';
import { writeAtomically } from './write-atomically.js';

/** The containers a scan is written in. */
export const SCAN_CONTAINERS = ['png', 'pdf'] as const;
/** `png`: the image partitioner's path; `pdf`: the OCR path of a PDF page without a text layer. */
export type ScanContainer = (typeof SCAN_CONTAINERS)[number];

/** One scanned page written to disk. */
export interface ScanFile {
  /** The document (its reference's name without `.json`). */
  doc: string;
  /** 1-based page of the source PDF. */
  page: number;
  /** The scan's file, `<doc>-p<page>.<container>`. */
  path: string;
}

/** The pages (1-based, ascending) that hold a table of a reference. */
export function tablePages(tables: readonly { pages?: number[] }[]): number[] {
  return [...new Set(tables.flatMap((t) => t.pages ?? []))].sort((a, b) => a - b);
}

/**
 * Scans the pages holding reference tables of every `<doc>.json` of EXPECTED_DIR from `<doc>.pdf` of
 * `docsDir` into `dir`, in `container`. A reference without tables is left out. Throws a UserError
 * naming the reference when its source PDF is missing or one of its tables gives no page.
 */
export async function writeScans(expectedDir: string, docsDir: string, dir: string, container: ScanContainer): Promise<ScanFile[]> {
  const { scanPdfPages } = await import('@quarry/nodes');
  const { PDFDocument } = container === 'pdf' ? await import('pdf-lib') : { PDFDocument: undefined };
  await mkdir(dir, { recursive: true });
  const out: ScanFile[] = [];
  for (const name of await referenceNames(expectedDir)) {
    const doc = name.slice(0, -'.json'.length);
    const { tables } = await readReference(join(expectedDir, name));
    if (tables.length === 0) continue;
    if (tables.some((t) => !t.pages?.length)) throw new UserError(`--scanned: a table of reference ${name} gives no page, so there is no page to scan`);
    const source = join(docsDir, `${doc}.pdf`);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(source));
    } catch {
      throw new UserError(`--scanned: cannot read ${source}, the source PDF of reference ${name}`);
    }
    for (const scan of await scanPdfPages(bytes, tablePages(tables), `${doc}.pdf`)) {
      const path = join(dir, `${doc}-p${scan.page}.${container}`);
      if (PDFDocument) {
        const pdf = await PDFDocument.create();
        const image = await pdf.embedPng(scan.png);
        pdf.addPage([scan.widthPoints, scan.heightPoints]).drawImage(image, { x: 0, y: 0, width: scan.widthPoints, height: scan.heightPoints });
        await writeFile(path, await pdf.save());
      } else await writeFile(path, scan.png);
      out.push({ doc, page: scan.page, path });
    }
  }
  return out;
}

/**
 * Joins the outputs of scanned pages (`<scan file name>.json` in `pagesOutDir`, as `quarry partition`
 * names them) into `<doc>.json` per document in `outDir`, each element's `metadata.page_number` set to
 * the page it was rendered from. A page without output (its partition failed) adds nothing.
 */
export async function joinScannedOutputs(scans: readonly ScanFile[], pagesOutDir: string, outDir: string): Promise<void> {
  const byDoc = new Map<string, ScanFile[]>();
  for (const s of scans) byDoc.set(s.doc, [...(byDoc.get(s.doc) ?? []), s]);
  await mkdir(outDir, { recursive: true });
  for (const [doc, pages] of byDoc) {
    const elements: unknown[] = [];
    for (const s of pages) {
      const file = join(pagesOutDir, `${basename(s.path)}.json`);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      for (const e of JSON.parse(text) as Array<{ metadata?: Record<string, unknown> }>) {
        elements.push({ ...e, metadata: { ...e.metadata, page_number: s.page } });
      }
    }
    await writeAtomically(join(outDir, `${doc}.json`), `${JSON.stringify(elements, null, 2)}\n`);
  }
}

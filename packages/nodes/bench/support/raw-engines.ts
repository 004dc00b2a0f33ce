/**
 * The engines under quarry's `fast` strategy, called raw (text only, one thread, no layout): the
 * floor that our typed elements are measured against in the same process.
 */
import { loadPdfjs, pdfjsAssetDirs } from '../../src/partition/formats/pdf/pdfjs/load.js';
import { instantiatePdfium } from '../../src/partition/formats/pdf/pdfium/module.js';

/** Raw pdf.js (quarry's vendored copy): every page's `getTextContent`, nothing else. */
export async function rawTextContent(bytes: Uint8Array): Promise<number> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({
    data: bytes.slice(),
    ...pdfjsAssetDirs(),
    cMapPacked: true,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  let items = 0;
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    items += (await page.getTextContent()).items.length;
    page.cleanup();
  }
  await doc.destroy();
  return items;
}

/** Raw PDFium through the WebAssembly exports quarry calls: every page's plain text. */
export async function rawPdfiumText(bytes: Uint8Array): Promise<number> {
  const { x, u8 } = await instantiatePdfium();
  const data = x.malloc(bytes.length);
  u8().set(bytes, data);
  const doc = x.FPDF_LoadMemDocument(data, bytes.length, 0);
  let chars = 0;
  for (let i = 0, n = x.FPDF_GetPageCount(doc); i < n; i++) {
    const page = x.FPDF_LoadPage(doc, i);
    const text = x.FPDFText_LoadPage(page);
    const count = x.FPDFText_CountChars(text);
    const buf = x.malloc(2 * (count + 1));
    chars += x.FPDFText_GetText(text, 0, count, buf);
    x.free(buf);
    x.FPDFText_ClosePage(text);
    x.FPDF_ClosePage(page);
  }
  x.FPDF_CloseDocument(doc);
  x.free(data);
  return chars;
}

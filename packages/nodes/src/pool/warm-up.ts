import path from 'node:path';
import JSZip from 'jszip';
import { importOptional } from '../optional-dependency.js';
import { pdfjsAssetDirs } from '../partition/formats/pdf/pdfjs/load.js';
import type { partitionFile } from '../partition/partition-file.js';

/** A tiny document of one common format, named so that its type is detected as a real one's would be. */
export interface WarmUpSample {
  filename: string;
  bytes: Uint8Array;
}

const WARM_UP_FONT = 'QuarryWarmUpSans';
const PARAGRAPH = 'The quarterly figures were reviewed by the board, and every region reported steady growth.';
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A one-page PDF with a heading and a paragraph in Helvetica, its cross-reference table computed. */
function pdfSample(): Uint8Array {
  const content = `BT /F1 16 Tf 72 720 Td (Annual report) Tj ET\nBT /F1 11 Tf 72 690 Td (${PARAGRAPH}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return utf8(pdf);
}

const OOXML_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`;
}

function relationships(rels: Array<[id: string, type: string, target: string]>): string {
  const body = rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${OOXML_RELS}/${type}" Target="${target}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PACKAGE_RELS}">${body}</Relationships>`;
}

async function zip(files: Record<string, string>): Promise<Uint8Array> {
  const archive = new JSZip();
  for (const [name, text] of Object.entries(files)) archive.file(name, text);
  return archive.generateAsync({ type: 'uint8array' });
}

function docxSample(): Promise<Uint8Array> {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
  return zip({
    '[Content_Types].xml': contentTypes({ '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml' }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'word/document.xml']]),
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${w}"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Annual report</w:t></w:r></w:p><w:p><w:r><w:t>${PARAGRAPH}</w:t></w:r></w:p><w:tbl><w:tr>${cell('Region')}${cell('Growth')}</w:tr><w:tr>${cell('North')}${cell('4%')}</w:tr></w:tbl></w:body></w:document>`,
  });
}

function xlsxSample(): Promise<Uint8Array> {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const row = (r: number, a: string, b: string) => `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${a}</t></is></c>${b}</row>`;
  return zip({
    '[Content_Types].xml': contentTypes({
      '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      '/xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
    }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${OOXML_RELS}"><sheets><sheet name="Figures" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': relationships([['rId1', 'worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>${row(1, 'Region', '<c r="B1" t="inlineStr"><is><t>Growth</t></is></c>')}${row(2, 'North', '<c r="B2"><v>4</v></c>')}</sheetData></worksheet>`,
  });
}

function pptxSample(): Promise<Uint8Array> {
  const p = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const shape = (id: number, type: string, text: string) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${type}"/><p:cNvSpPr/><p:nvPr><p:ph type="${type}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
  return zip({
    '[Content_Types].xml': contentTypes({
      '/ppt/presentation.xml': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      '/ppt/slides/slide1.xml': 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
    }),
    '_rels/.rels': relationships([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml': `<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="${p}" xmlns:r="${OOXML_RELS}"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': relationships([['rId1', 'slide', 'slides/slide1.xml']]),
    'ppt/slides/slide1.xml': `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="${p}" xmlns:a="${a}" xmlns:r="${OOXML_RELS}"><p:cSld><p:spTree>${shape(2, 'title', 'Annual report')}${shape(3, 'body', PARAGRAPH)}</p:spTree></p:cSld></p:sld>`,
  });
}

const EMAIL = [
  'From: Board <board@example.com>',
  'To: Staff <staff@example.com>',
  'Subject: Annual report',
  'Date: Mon, 3 Mar 2025 09:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/html; charset="utf-8"',
  '',
  `<html><body><h1>Annual report</h1><p>${PARAGRAPH}</p></body></html>`,
  '--b1',
  'Content-Type: text/plain; charset="utf-8"',
  'Content-Disposition: attachment; filename="notes.txt"',
  '',
  PARAGRAPH,
  '--b1--',
  '',
].join('\r\n');

/**
 * A logo-sized PNG with a line of text in Liberation Sans (vendored with pdf.js), drawn with
 * `@napi-rs/canvas`: an e-mail's attached logo is OCR'd in the small lane, and a process's first OCR
 * waits for a Tesseract engine to start (about 1 CPU second) and then for V8 to optimize its first
 * read (0.5 s more). None when canvas is not installed.
 */
async function pngSample(): Promise<Uint8Array | undefined> {
  let canvas: typeof import('@napi-rs/canvas');
  try {
    canvas = await importOptional<typeof import('@napi-rs/canvas')>('@napi-rs/canvas', 'the warm-up image');
  } catch {
    return undefined;
  }
  if (!canvas.GlobalFonts.has(WARM_UP_FONT))
    canvas.GlobalFonts.registerFromPath(path.join(pdfjsAssetDirs().standardFontDataUrl, 'LiberationSans-Regular.ttf'), WARM_UP_FONT);
  const image = canvas.createCanvas(320, 60);
  const ctx = image.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, image.width, image.height);
  ctx.fillStyle = '#000';
  ctx.font = `32px ${WARM_UP_FONT}`;
  ctx.fillText('Annual report', 16, 42);
  return image.encode('png');
}

/**
 * One tiny document of each common format: plain text, Markdown, HTML, XML, CSV, JSON, e-mail (an
 * HTML body and an attachment), PDF (its first page read costs PDFium's compilation), Word, Excel
 * and PowerPoint.
 */
export async function documentSamples(): Promise<WarmUpSample[]> {
  return [
    { filename: 'warm-up.txt', bytes: utf8(`Annual report\n\n${PARAGRAPH}\n`) },
    { filename: 'warm-up.md', bytes: utf8(`# Annual report\n\n${PARAGRAPH}\n\n- North\n- South\n\n\`\`\`\ncode\n\`\`\`\n`) },
    {
      filename: 'warm-up.html',
      bytes: utf8(
        `<html><body><h1>Annual report</h1><p>${PARAGRAPH}</p><ul><li>North</li></ul><table><tr><th>Region</th></tr><tr><td>North</td></tr></table></body></html>`,
      ),
    },
    { filename: 'warm-up.xml', bytes: utf8(`<?xml version="1.0"?><report><title>Annual report</title><body>${PARAGRAPH}</body></report>`) },
    { filename: 'warm-up.csv', bytes: utf8('Region,Growth\nNorth,4\n') },
    { filename: 'warm-up.json', bytes: utf8(JSON.stringify([{ type: 'Title', element_id: 'warm-up', text: 'Annual report', metadata: {} }])) },
    { filename: 'warm-up.eml', bytes: utf8(EMAIL) },
    { filename: 'warm-up.pdf', bytes: pdfSample() },
    { filename: 'warm-up.docx', bytes: await docxSample() },
    { filename: 'warm-up.xlsx', bytes: await xlsxSample() },
    { filename: 'warm-up.pptx', bytes: await pptxSample() },
  ];
}

/**
 * A small PNG read by OCR, which starts an OCR engine (kept for the process's life, about 100 MB
 * resident); none where `@napi-rs/canvas` is not installed to draw it.
 */
export async function pictureSamples(): Promise<WarmUpSample[]> {
  const png = await pngSample();
  return png ? [{ filename: 'warm-up.png', bytes: png }] : [];
}

/** {@link documentSamples}, then {@link pictureSamples}. */
export async function warmUpSamples(): Promise<WarmUpSample[]> {
  return [...(await documentSamples()), ...(await pictureSamples())];
}

/**
 * Partitions each warm-up sample (by default {@link warmUpSamples}) once, as the legacy endpoint
 * would (`auto`, English OCR), so that this process has loaded the common formats' parsers and run
 * their code before its first real document: in a fresh process the first PDF, e-mail or
 * spreadsheet costs ten times or more what the next one does. A sample that fails is skipped: its format loads on first use instead.
 * Before each sample it awaits `untilIdle` (a process's: while a real document runs), so that a
 * document arriving meanwhile shares the process with one sample at most. Returns the file names
 * of the samples that partitioned. `partition` is the partitioner the process's tasks call: the
 * worker bundle's own copy, which a copy imported here would leave cold.
 */
export async function warmUp(
  partition: typeof partitionFile,
  untilIdle: () => Promise<void> = () => Promise.resolve(),
  samples: readonly WarmUpSample[] | Promise<readonly WarmUpSample[]> = warmUpSamples(),
): Promise<string[]> {
  const done: string[] = [];
  for (const { filename, bytes } of await samples) {
    await untilIdle();
    try {
      await partition(bytes, { filename, strategy: 'auto', ocr_languages: ['eng'] });
      done.push(filename);
    } catch {
      // Warming is best effort: that format loads on its first document.
    }
  }
  return done;
}

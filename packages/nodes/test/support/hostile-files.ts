/**
 * Generators for the hostile inputs of issue 20 (and the related hostile-input issue): files that
 * killed or hung `quarry serve` / `quarry partition`. Every file is built here, deterministically,
 * from code: no binary fixture is committed. `expect` records what partitioning each file does to
 * today's code, as measured in a child process by `hostile-probe.ts`; never partition these inside
 * a test process (a native crash would take the test runner with it).
 */
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

/** What partitioning a hostile file does to the process that reads it. */
export type HostileOutcome =
  /** A native crash: the process dies on a signal (SIGSEGV, SIGILL, SIGABRT). */
  | 'crash'
  /** An unhandled promise rejection: Node ends the process (exit code 1). */
  | 'rejection'
  /** Partitioning does not finish within the probe's timeout. */
  | 'hang'
  /** V8 runs out of heap (`--max-old-space-size`) and aborts. */
  | 'heap'
  /** A coded error (`QuarryError`): the process survives. */
  | 'error'
  /** The file is partitioned. */
  | 'ok';

/** A hostile file and what it does today. */
export interface HostileFile {
  /** File name, extension included (the partitioner is chosen by it). */
  name: string;
  bytes: Uint8Array;
  /** The outcome measured today in a child process (see `hostile-probe.ts`). */
  expect: HostileOutcome;
  /** What the file is, in one line. */
  description: string;
  /** The strategies the probe partitions it with. */
  strategies: readonly ProbeStrategy[];
  /** The probe's timeout for this file when its default (20 s) is too short to reach `expect`. */
  timeoutSeconds?: number;
}

/** Strategies the probe uses: `fast` for every file, and `hi_res` too for images (both decode them alike). */
export type ProbeStrategy = 'fast' | 'hi_res';

const IMAGE_STRATEGIES: readonly ProbeStrategy[] = ['fast', 'hi_res'];
const FAST_ONLY: readonly ProbeStrategy[] = ['fast'];

// ---------------------------------------------------------------------------------------------
// Byte helpers
// ---------------------------------------------------------------------------------------------

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function latin1(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function u16be(n: number): number[] {
  return [(n >>> 8) & 0xff, n & 0xff];
}

function u32be(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib stream holding `data` in one stored (uncompressed) block: byte-exact whatever zlib
 * version runs, so the PNG sizes below never drift. `data` must be under 64 KiB.
 */
function zlibStored(data: Uint8Array): Uint8Array {
  const len = data.byteLength;
  return concatBytes([
    Uint8Array.from([0x78, 0x01, 0x01, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff]),
    data,
    Uint8Array.from(u32be(adler32(data))),
  ]);
}

// ---------------------------------------------------------------------------------------------
// PNG
// ---------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concatBytes([latin1(type), data]);
  return concatBytes([Uint8Array.from(u32be(data.byteLength)), typeAndData, Uint8Array.from(u32be(crc32(typeAndData)))]);
}

// Color types of the IHDR chunk.
const PNG_RGB = 2;
const PNG_PALETTE = 3;

function pngHeader(width: number, height: number, colorType: number): Uint8Array {
  // Bit depth 8, deflate, adaptive filtering, no interlace.
  return pngChunk('IHDR', Uint8Array.from([...u32be(width), ...u32be(height), 8, colorType, 0, 0, 0]));
}

/**
 * `huge-header.png`, 74 bytes: an RGB PNG whose IHDR claims 50,000 x 50,000 pixels, with one
 * stored zlib block of six zero bytes as its pixel data. `@napi-rs/canvas`' `loadImage` decoded
 * the bitmap (10 GB of RGBA) before quarry compared the size with its pixel limit, and Skia's
 * failed allocation is a fatal assert: SIGILL. Now the header check refuses it: FILE_TOO_LARGE.
 */
export function hugeHeaderPng(): HostileFile {
  const bytes = concatBytes([
    PNG_SIGNATURE,
    pngHeader(50_000, 50_000, PNG_RGB),
    pngChunk('IDAT', zlibStored(new Uint8Array(6))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
  return { name: 'huge-header.png', bytes, expect: 'error', description: 'PNG header claiming 50,000 x 50,000 pixels', strategies: IMAGE_STRATEGIES };
}

const PALETTE_SIDE = 16;

/** A palette image's rows: filter byte 0, then every pixel palette index 1. */
function paletteRows(): Uint8Array {
  const rows = new Uint8Array(PALETTE_SIDE * (PALETTE_SIDE + 1));
  for (let y = 0; y < PALETTE_SIDE; y++) rows.fill(1, y * (PALETTE_SIDE + 1) + 1, (y + 1) * (PALETTE_SIDE + 1));
  return rows;
}

/** A 16 x 16 palette PNG with the given PLTE chunk data, every pixel using palette index 1. */
function palettePng(palette: Uint8Array): Uint8Array {
  return concatBytes([
    PNG_SIGNATURE,
    pngHeader(PALETTE_SIDE, PALETTE_SIDE, PNG_PALETTE),
    pngChunk('PLTE', palette),
    pngChunk('IDAT', zlibStored(paletteRows())),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

// Black, white, red: three whole RGB entries.
const GOOD_PALETTE = [0, 0, 0, 255, 255, 255, 255, 0, 0];

/**
 * `corrupt-palette.png`: a 16 x 16 palette PNG whose PLTE chunk is 11 bytes, its fourth RGB entry
 * cut short (a palette's length must be a multiple of 3); every CRC is right. Skia rejects the
 * header, and `@napi-rs/canvas` 0.1.100 crashes whenever Skia cannot open a PNG or JPEG (every
 * such file tried): SIGSEGV in its decode task on the libuv thread pool. libvips (sharp) now
 * rejects it: FILE_UNREADABLE.
 */
export function corruptPalettePng(): HostileFile {
  const bytes = palettePng(Uint8Array.from([...GOOD_PALETTE, 0, 255]));
  return { name: 'corrupt-palette.png', bytes, expect: 'error', description: 'palette PNG with a truncated PLTE entry', strategies: IMAGE_STRATEGIES };
}

/** The same PNG with three whole palette entries: a control that decodes. */
export function validPalettePng(): Uint8Array {
  return palettePng(Uint8Array.from(GOOD_PALETTE));
}

/**
 * A complete, valid black RGB PNG of any size, made in about a millisecond per thousand rows: one
 * row is deflated once and its compressed bytes repeated; the Adler-32 of all-zero data is 1 in
 * its low half and the length mod 65521 in its high half.
 */
export function blackPng(width: number, height: number): Uint8Array {
  const row = new Uint8Array(1 + width * 3);
  const rowDeflated = deflatePiece(row);
  const adler = ((((row.byteLength * height) % 65521) << 16) | 1) >>> 0;
  const zlib = concatBytes([
    Uint8Array.from([0x78, 0x01]),
    ...new Array<Uint8Array>(height).fill(rowDeflated),
    deflateRawSync(new Uint8Array(0)),
    Uint8Array.from(u32be(adler)),
  ]);
  return concatBytes([PNG_SIGNATURE, pngHeader(width, height, PNG_RGB), pngChunk('IDAT', zlib), pngChunk('IEND', new Uint8Array(0))]);
}

/** Side of {@link completeHugePng}: 400,000,000 pixels, four times the default limit. */
export const COMPLETE_HUGE_PNG_SIDE = 20_000;

/**
 * `complete-huge.png`, about 1.6 MB: a complete, valid 20,000 x 20,000 black PNG (1.2 GB of
 * scanlines). Skia decoded it for 53 s and 9.7 GB before a coded error (a hang at a 60 s
 * timeout, 6 GB resident by then); the header check refuses it at no cost: FILE_TOO_LARGE.
 */
export function completeHugePng(): HostileFile {
  const bytes = blackPng(COMPLETE_HUGE_PNG_SIDE, COMPLETE_HUGE_PNG_SIDE);
  return { name: 'complete-huge.png', bytes, expect: 'error', description: 'complete 20,000 x 20,000 PNG', strategies: IMAGE_STRATEGIES };
}

// ---------------------------------------------------------------------------------------------
// JPEG
// ---------------------------------------------------------------------------------------------

function jpegSegment(marker: number, body: readonly number[]): Uint8Array {
  return Uint8Array.from([0xff, marker, ...u16be(body.length + 2), ...body]);
}

// The standard luminance DC table of JPEG Annex K.3: code counts per length, then symbols.
const DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
// An AC table with the one code the scan uses: end of block (symbol 0), 1 bit long.
const AC_COUNTS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_SYMBOLS = [0];

/**
 * A `side` x `side` grayscale baseline JPEG (`side` a multiple of 8) with the given DC Huffman
 * table, every block DC difference 0 then end of block; with the standard table it decodes to a
 * flat gray square.
 */
function grayJpeg(dcCounts: readonly number[], dcSymbols: readonly number[], side = 8): Uint8Array {
  return concatBytes([grayJpegHead(dcCounts, dcSymbols, side), grayScan(side), Uint8Array.from([0xff, 0xd9])]);
}

/** A gray JPEG up to its scan data: tables, frame header and scan header. */
function grayJpegHead(dcCounts: readonly number[], dcSymbols: readonly number[], side: number): Uint8Array {
  return concatBytes([
    Uint8Array.from([0xff, 0xd8]),
    jpegSegment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    jpegSegment(0xc0, [8, ...u16be(side), ...u16be(side), 1, 1, 0x11, 0]),
    jpegSegment(0xc4, [0x00, ...dcCounts, ...dcSymbols]),
    jpegSegment(0xc4, [0x10, ...AC_COUNTS, ...AC_SYMBOLS]),
    jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]),
  ]);
}

/** Scan data of a gray JPEG: per block DC code "00" (difference 0) and AC code "0" (end of block), padded with 1 bits. */
function grayScan(side: number): Uint8Array {
  const bits = (side / 8) ** 2 * 3;
  const out = new Uint8Array(Math.ceil(bits / 8));
  // Every code bit is 0; only the padding of the last byte is 1s.
  if (bits % 8) out[out.length - 1] = 0xff >>> (bits % 8);
  return out;
}

/**
 * `bad-huffman.jpg`: an 8 x 8 baseline JPEG whose DC Huffman table declares 17 codes of every
 * length, 272 in all (a table holds at most 256). libjpeg-turbo rejects the table while reading
 * the header, and `@napi-rs/canvas` 0.1.100 then crashed: SIGSEGV. libvips now rejects it:
 * FILE_UNREADABLE.
 */
export function badHuffmanJpeg(): HostileFile {
  const counts = new Array<number>(16).fill(17);
  const symbols = Array.from({ length: 17 * 16 }, (_, i) => i & 0xff);
  return {
    name: 'bad-huffman.jpg',
    bytes: grayJpeg(counts, symbols),
    expect: 'error',
    description: 'JPEG with a Huffman table of 272 codes',
    strategies: IMAGE_STRATEGIES,
  };
}

/** The same JPEG with the standard DC table: a control that decodes. */
export function validGrayJpeg(): Uint8Array {
  return grayJpeg(DC_COUNTS, DC_SYMBOLS);
}

/** Side of {@link truncatedJpeg}: 4096 blocks, 1,536 bytes of scan data. */
export const TRUNCATED_JPEG_SIDE = 512;

/**
 * `truncated.jpg`: a valid 512 x 512 gray baseline JPEG cut in the middle of its scan data (no
 * EOI), as a download or attachment cut short leaves it. libjpeg only warns ("premature end"):
 * Skia filled the rest with gray and OCR found nothing (0 elements). libvips, told to fail on
 * truncated data, rejects it: FILE_UNREADABLE.
 */
export function truncatedJpeg(): HostileFile {
  const scan = grayScan(TRUNCATED_JPEG_SIDE);
  const bytes = concatBytes([grayJpegHead(DC_COUNTS, DC_SYMBOLS, TRUNCATED_JPEG_SIDE), scan.subarray(0, scan.byteLength / 2)]);
  return { name: 'truncated.jpg', bytes, expect: 'error', description: 'JPEG cut short in the middle of its scan data', strategies: IMAGE_STRATEGIES };
}

/** The whole JPEG that {@link truncatedJpeg} cuts: a control that decodes. */
export function wholeGrayJpeg(): Uint8Array {
  return grayJpeg(DC_COUNTS, DC_SYMBOLS, TRUNCATED_JPEG_SIDE);
}

// ---------------------------------------------------------------------------------------------
// E-mail
// ---------------------------------------------------------------------------------------------

function base64Lines(bytes: Uint8Array): string {
  return (
    Buffer.from(bytes)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
}

/**
 * `corrupt-images.eml`: a plain-text message with `corrupt-palette.png` and `bad-huffman.jpg`
 * attached. The e-mail partitioner hands each attachment to the image partitioner, so the first
 * one crashed the process as it would alone: SIGSEGV. Now each attachment fails with
 * FILE_UNREADABLE, which the e-mail partitioner logs as a warning: the message's body is read.
 */
export function corruptImagesEml(): HostileFile {
  const boundary = 'hostile-boundary';
  const attachments = [
    { file: corruptPalettePng(), type: 'image/png' },
    { file: badHuffmanJpeg(), type: 'image/jpeg' },
  ];
  const lines = [
    'From: Mallory <mallory@example.com>',
    'To: Victim <victim@example.com>',
    'Subject: Scans attached',
    'Date: Mon, 01 Jan 2024 00:00:00 +0000',
    'Message-ID: <corrupt-images@example.com>',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the scans attached.',
    ...attachments.flatMap(({ file, type }) => [
      `--${boundary}`,
      `Content-Type: ${type}; name="${file.name}"`,
      `Content-Disposition: attachment; filename="${file.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(file.bytes),
    ]),
    `--${boundary}--`,
    '',
  ];
  return {
    name: 'corrupt-images.eml',
    bytes: utf8(lines.join('\r\n')),
    expect: 'ok',
    description: 'e-mail with the corrupt PNG and JPEG attached',
    strategies: FAST_ONLY,
  };
}

/**
 * An e-mail whose body says `Level <depth>` and which has the same e-mail of `depth - 1` attached,
 * down to level 0 (no attachment). Attached messages are sent as is (7bit): base64 would grow each
 * level by a third.
 */
export function nestedEml(depth: number): Uint8Array {
  let message = ['Subject: Level 0', 'Content-Type: text/plain', '', 'Level 0', ''].join('\r\n');
  for (let level = 1; level <= depth; level++) {
    const boundary = `B${level}`;
    message = [
      `Subject: Level ${level}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain',
      '',
      `Level ${level}`,
      `--${boundary}`,
      'Content-Type: message/rfc822',
      `Content-Disposition: attachment; filename="level-${level - 1}.eml"`,
      '',
      message,
      `--${boundary}--`,
      '',
    ].join('\r\n');
  }
  return utf8(message);
}

/**
 * `nested-200.eml`: {@link nestedEml} 200 levels deep. Attachments past 8 levels used to be
 * dropped with only a generic warning (and the deepest read e-mail lost its body); now they are
 * left out with a warning naming `QUARRY_MAX_EMBEDDING_DEPTH`.
 */
export function nestedAttachmentsEml(): HostileFile {
  return { name: 'nested-200.eml', bytes: nestedEml(200), expect: 'ok', description: 'e-mail with e-mails attached 200 levels deep', strategies: FAST_ONLY };
}

// ---------------------------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------------------------

/** A PDF stream object's text: dictionary entries, `/Length`, and the data. */
function pdfStream(dictEntries: string, data: Uint8Array): Uint8Array {
  return concatBytes([latin1(`<< ${dictEntries} /Length ${data.byteLength} >>\nstream\n`), data, latin1('\nendstream')]);
}

/** Options of {@link pdfFile}. */
interface PdfFileOptions {
  /** The offset written into the xref table for object `num`, given its true offset. */
  xrefOffset?: (num: number, trueOffset: number, offsets: readonly number[]) => number;
}

/**
 * A PDF of the given objects (object i + 1 is `objects[i]`), catalog first, with a classic xref
 * table and trailer.
 */
function pdfFile(objects: ReadonlyArray<string | Uint8Array>, options: PdfFileOptions = {}): Uint8Array {
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let at = parts[0]!.byteLength;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = concatBytes([latin1(`${i + 1} 0 obj\n`), typeof body === 'string' ? latin1(body) : body, latin1('\nendobj\n')]);
    parts.push(obj);
    at += obj.byteLength;
  });
  const written = offsets.map((o, i) => options.xrefOffset?.(i + 1, o, offsets) ?? o);
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...written.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return concatBytes(parts);
}

/** A 5-byte CFF DICT integer operand (operator 29), so offsets can be written before they are known. */
function cffInt(n: number): number[] {
  return [29, ...u32be(n)];
}

/** A CFF INDEX of one-byte offsets. */
function cffIndex(items: ReadonlyArray<readonly number[]>): number[] {
  if (items.length === 0) return [0, 0];
  const offsets = [1];
  for (const item of items) offsets.push(offsets[offsets.length - 1]! + item.length);
  return [...u16be(items.length), 1, ...offsets, ...items.flat()];
}

const CFF_GLYPHS = 100;

/**
 * A bare CFF font of {@link CFF_GLYPHS} glyphs (each just `endchar`) whose charset, in format 1,
 * names one glyph and then runs into the end of the data. pdf.js' `CFFParser.parseCharsets`
 * loops until the charset covers every glyph; past the end each range reads `undefined` as its
 * glyph count and adds nothing, so the loop never ends.
 */
export function charsetLoopCff(): Uint8Array {
  const header = [1, 0, 4, 1];
  const names = cffIndex([[0x46]]);
  // The top DICT's size is fixed (5-byte operands), so the offsets after it can be computed.
  const topDictSize = 12;
  const topIndexSize = 2 + 1 + 2 + topDictSize;
  const charStringsAt = header.length + names.length + topIndexSize + 2 + 2;
  const charStrings = cffIndex(Array.from({ length: CFF_GLYPHS }, () => [14]));
  const charsetAt = charStringsAt + charStrings.length;
  const topDict = [...cffInt(charStringsAt), 17, ...cffInt(charsetAt), 15];
  // Format 1, one range: first SID 1, no glyphs left in the range; then the data ends.
  const charset = [1, 0, 1, 0];
  return Uint8Array.from([...header, ...names, ...cffIndex([topDict]), ...cffIndex([]), ...cffIndex([]), ...charStrings, ...charset]);
}

/** A one-page PDF showing "Hello" in a Type 1 font whose program is the given CFF (FontFile3). */
function pdfWithCffFont(cff: Uint8Array): Uint8Array {
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    pdfStream('', latin1('BT /F1 12 Tf 72 720 Td (Hello) Tj ET')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Hostile /FontDescriptor 6 0 R >>',
    '<< /Type /FontDescriptor /FontName /Hostile /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 7 0 R >>',
    pdfStream('/Subtype /Type1C', cff),
  ]);
}

/**
 * `cff-charset-loop.pdf`: one page whose font program is {@link charsetLoopCff}. pdf.js parses
 * the font when the page's text is read, on the calling thread (its "fake worker" in Node), so
 * the endless loop blocked the event loop: a hang no timeout or abort signal could end. quarry's
 * pdf.js patch ends the charset at the end of the font; the page is read with a fallback font.
 */
export function cffCharsetLoopPdf(): HostileFile {
  return {
    name: 'cff-charset-loop.pdf',
    bytes: pdfWithCffFont(charsetLoopCff()),
    expect: 'ok',
    description: 'PDF with a CFF font whose charset runs off its end',
    strategies: FAST_ONLY,
  };
}

/**
 * `broken-xref.pdf`: two text pages whose xref entries both point at the wrong object (each
 * page's content stream). To find page 1, pdf.js' `Catalog.getPageDict` starts fetching every
 * kid of the page tree at once; page 1's fetch fails first, the document is rebuilt from a scan
 * of the file (and then reads fine), but the failed prefetch of page 2 was never awaited: an
 * unhandled rejection (XRefEntryException), which ended a Node process. quarry's pdf.js patch
 * handles the prefetch's failure; both pages are read.
 */
export function brokenXrefPdf(): HostileFile {
  const text = (s: string): Uint8Array => pdfStream('', latin1(`BT /F1 12 Tf 72 720 Td (${s}) Tj ET`));
  const page = (contents: number): string =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents ${contents} 0 R >>`;
  const pageObjects = new Set([3, 5]);
  const bytes = pdfFile(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
      page(4),
      text('Page one.'),
      page(6),
      text('Page two.'),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ],
    // Each page's entry points at the object after it.
    { xrefOffset: (num, offset, offsets) => (pageObjects.has(num) ? offsets[num]! : offset) },
  );
  return { name: 'broken-xref.pdf', bytes, expect: 'ok', description: 'PDF whose xref points both pages at the wrong objects', strategies: FAST_ONLY };
}

const PAGE_TREE_FANOUT = 10;

/**
 * A PDF of 10^levels identical, empty pages in a page tree of inline nodes. Each level is one
 * array object of ten inline /Pages dictionaries whose /Kids all refer to the next level's array,
 * so a few small objects fan out to any number of pages. pdf.js' cycle check covers referenced
 * nodes only, and inline nodes carry no /Count, so unpatched pdf.js finds page n by walking the
 * n pages before it: reading every page is quadratic (10,000 pages: 43 s of page lookups).
 */
export function inlinePageTreePdf(levels: number): Uint8Array {
  const arrays: string[] = [];
  for (let level = 0; level < levels; level++) {
    const leaf = level === levels - 1;
    const kid = leaf ? '<< /Type /Page /MediaBox [0 0 612 792] >>' : `<< /Type /Pages /Kids ${level + 4} 0 R >>`;
    arrays.push(`[${new Array<string>(PAGE_TREE_FANOUT).fill(kid).join(' ')}]`);
  }
  return pdfFile(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids 3 0 R /Count ${PAGE_TREE_FANOUT ** levels} >>`, ...arrays]);
}

/**
 * `hundred-thousand-pages.pdf`, about 2 KB: {@link inlinePageTreePdf} of 10^5 pages. Before the
 * page limit, reading it hung (killed at 300 s) with 1 GB resident; now it is refused on opening
 * (`DOCUMENT_TOO_COMPLEX`, over `QUARRY_MAX_PDF_PAGES`).
 */
export function hundredThousandPagesPdf(): HostileFile {
  return {
    name: 'hundred-thousand-pages.pdf',
    bytes: inlinePageTreePdf(5),
    expect: 'error',
    description: 'PDF of 1-2 KB whose page tree holds 100,000 pages',
    strategies: FAST_ONLY,
  };
}

/** The side, in points, of {@link giantPageScanPdf}'s page: 69 inches, 193 M pixels at 200 dpi. */
export const GIANT_PAGE_POINTS = 5000;

/**
 * `giant-page-scan.pdf`: one page of 5000 x 5000 pt holding a scan, a 1000 x 1000 greyscale image
 * of dark bars stretched over the page, and two words in 400-pt letters: too little text for a
 * text layer, so hi_res reads the page with OCR. Rendered at 200 dpi for OCR that is 193 M pixels: the RGBA canvas and the copy read from
 * it took the partition process past 1.5 GB.
 */
export function giantPageScanPdf(): HostileFile {
  const side = 1000;
  const pixels = new Uint8Array(side * side).fill(255);
  for (let y = 100; y < 900; y += 40) for (let row = y; row < y + 16; row++) for (let x = 100; x < 100 + ((y * 7) % 700) + 100; x++) pixels[row * side + x] = 0;
  const bytes = pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${GIANT_PAGE_POINTS} ${GIANT_PAGE_POINTS}] /Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>`,
    pdfStream('', latin1(`q ${GIANT_PAGE_POINTS} 0 0 ${GIANT_PAGE_POINTS} 0 0 cm /Im1 Do Q BT /F1 400 Tf 500 300 Td (GIANT SCAN) Tj ET`)),
    pdfStream(
      `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      deflateSync(pixels),
    ),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
  return {
    name: 'giant-page-scan.pdf',
    bytes,
    expect: 'ok',
    description: 'PDF scan whose one page is 5000 x 5000 pt',
    strategies: ['hi_res'],
    timeoutSeconds: 120,
  };
}

// ---------------------------------------------------------------------------------------------
// ZIP (DOCX)
// ---------------------------------------------------------------------------------------------

/** One entry of a ZIP archive, already deflated. */
interface ZipEntry {
  name: string;
  deflated: Uint8Array;
  crc: number;
  size: number;
}

function deflatedEntry(name: string, data: Uint8Array): ZipEntry {
  return { name, deflated: deflateRawSync(data), crc: crc32(data), size: data.byteLength };
}

function u16le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff];
}

function u32le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

// Version 2.0, no flags, deflate, DOS time 00:00 and date 1980-01-01: fixed, so output is too.
function zipEntryFields(e: ZipEntry): number[] {
  return [
    ...u16le(20),
    ...u16le(0),
    ...u16le(8),
    ...u16le(0),
    ...u16le(0x21),
    ...u32le(e.crc),
    ...u32le(e.deflated.byteLength),
    ...u32le(e.size),
    ...u16le(e.name.length),
    ...u16le(0),
  ];
}

/** A ZIP archive (no ZIP64: every size stays under 4 GB). */
function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let at = 0;
  for (const e of entries) {
    const local = concatBytes([Uint8Array.from([...u32le(0x04034b50), ...zipEntryFields(e)]), latin1(e.name), e.deflated]);
    central.push(
      concatBytes([
        Uint8Array.from([...u32le(0x02014b50), ...u16le(20), ...zipEntryFields(e), ...u16le(0), ...u16le(0), ...u16le(0), ...u32le(0), ...u32le(at)]),
        latin1(e.name),
      ]),
    );
    parts.push(local);
    at += local.byteLength;
  }
  const directory = concatBytes(central);
  const end = Uint8Array.from([
    ...u32le(0x06054b50),
    ...u16le(0),
    ...u16le(0),
    ...u16le(entries.length),
    ...u16le(entries.length),
    ...u32le(directory.byteLength),
    ...u32le(at),
    ...u16le(0),
  ]);
  return concatBytes([...parts, directory, end]);
}

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A minimal DOCX package around the given main part. */
function docxPackage(documentXml: ZipEntry): Uint8Array {
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    '</Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
    '</Relationships>';
  return zipArchive([deflatedEntry('[Content_Types].xml', utf8(contentTypes)), deflatedEntry('_rels/.rels', utf8(rels)), documentXml]);
}

const DOCUMENT_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W_NS}"><w:body>`;
const DOCUMENT_TAIL = '</w:body></w:document>';

/** Raw deflate of `data` ending on a byte boundary without a final block, so pieces concatenate. */
function deflatePiece(data: Uint8Array): Uint8Array {
  return deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
}

/**
 * A deflated ZIP entry whose content is `head`, then `body` `repeat` times, then `tail`, made
 * without ever holding the whole content: `body` is deflated once (independently, ending on a
 * byte boundary) and its compressed bytes repeated; the CRC runs over the pieces.
 */
function repeatedEntry(name: string, head: Uint8Array, body: Uint8Array, repeat: number, tail: Uint8Array): ZipEntry {
  const bodyDeflated = deflatePiece(body);
  let crc = crc32(head);
  for (let i = 0; i < repeat; i++) crc = crc32(body, crc);
  crc = crc32(tail, crc);
  const deflated = concatBytes([deflatePiece(head), ...new Array<Uint8Array>(repeat).fill(bodyDeflated), deflateRawSync(tail)]);
  return { name, deflated, crc, size: head.byteLength + body.byteLength * repeat + tail.byteLength };
}

/** Paragraphs in the huge DOCX: 4M of 64 bytes each, 256 MB, under the 256 MiB part limit. */
export const HUGE_DOCX_PARAGRAPHS = 4_000_000;
const PARAGRAPHS_PER_PIECE = 10_000;
const HUGE_PARAGRAPH = '<w:p><w:r><w:t>One of four million paragraphs.</w:t></w:r></w:p>';

/**
 * `four-million-paragraphs.docx`, about 780 KB: a valid DOCX whose `word/document.xml` is 256 MB
 * of 4,000,000 identical paragraphs. It stays under quarry's 256 MiB part limit; parsed whole into
 * an element tree, the V8 heap ran out. The XML limit (`maxXmlBytes`) now refuses it with
 * FILE_TOO_LARGE once 32 MiB have inflated.
 */
export function fourMillionParagraphsDocx(): HostileFile {
  const piece = utf8(HUGE_PARAGRAPH.repeat(PARAGRAPHS_PER_PIECE));
  const entry = repeatedEntry('word/document.xml', utf8(DOCUMENT_HEAD), piece, HUGE_DOCX_PARAGRAPHS / PARAGRAPHS_PER_PIECE, utf8(DOCUMENT_TAIL));
  return {
    name: 'four-million-paragraphs.docx',
    bytes: docxPackage(entry),
    expect: 'error',
    description: 'DOCX whose document.xml is 256 MB (4M paragraphs)',
    strategies: FAST_ONLY,
    // With a 1 GB heap the parse gives out after about a minute (inflating in JS comes first).
    timeoutSeconds: 150,
  };
}

/** Depth of the nested content controls in {@link nestedSdtDocx}. */
export const NESTED_SDT_DEPTH = 100_000;

/**
 * `nested-sdt.docx`, about 12 KB: one paragraph inside 100,000 nested content controls
 * (`<w:sdt><w:sdtContent>`), 4.4 MB of XML. saxes resolved each element's `w:` prefix by walking
 * every open element up to the root, where it is declared: quadratic in the depth (2 x 10^10
 * steps), synchronously, in `parseXmlTree`, still running after 300 s. `parseXmlTree` now
 * resolves prefixes itself and folds the nesting past the depth limit: the paragraph is read.
 */
export function nestedSdtDocx(depth = NESTED_SDT_DEPTH): HostileFile {
  const xml =
    DOCUMENT_HEAD +
    '<w:sdt><w:sdtContent>'.repeat(depth) +
    '<w:p><w:r><w:t>Deep inside.</w:t></w:r></w:p>' +
    '</w:sdtContent></w:sdt>'.repeat(depth) +
    DOCUMENT_TAIL;
  return {
    name: 'nested-sdt.docx',
    bytes: docxPackage(deflatedEntry('word/document.xml', utf8(xml))),
    expect: 'ok',
    description: `DOCX with ${depth.toLocaleString('en-US')} nested w:sdt elements`,
    strategies: FAST_ONLY,
  };
}

/** Rows in the huge XLSX: 4M of 64 bytes each, 256 MB (under the 256 MiB part limit). */
export const HUGE_XLSX_ROWS = 4_000_000;
const HUGE_ROW = '<row><c t="inlineStr"><is><t>One of 4,000,000</t></is></c></row>';

/**
 * `four-million-rows.xlsx`, about 780 KB: a workbook of one sheet whose XML is 256 MB of 4,000,000
 * one-cell rows (inline strings). Read whole, it took the process past 4.5 GB before the XML limit
 * (`maxXmlBytes`), which now refuses it with FILE_TOO_LARGE.
 */
export function fourMillionRowsXlsx(): HostileFile {
  const head = utf8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${SML_NS}"><sheetData>`);
  const piece = utf8(HUGE_ROW.repeat(PARAGRAPHS_PER_PIECE));
  const sheet = repeatedEntry('xl/worksheets/sheet1.xml', head, piece, HUGE_XLSX_ROWS / PARAGRAPHS_PER_PIECE, utf8('</sheetData></worksheet>'));
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
    '</Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
    '</Relationships>';
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${SML_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const workbookRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
    '</Relationships>';
  const bytes = zipArchive([
    deflatedEntry('[Content_Types].xml', utf8(contentTypes)),
    deflatedEntry('_rels/.rels', utf8(rels)),
    deflatedEntry('xl/workbook.xml', utf8(workbook)),
    deflatedEntry('xl/_rels/workbook.xml.rels', utf8(workbookRels)),
    sheet,
  ]);
  return {
    name: 'four-million-rows.xlsx',
    bytes,
    expect: 'error',
    description: 'XLSX whose sheet XML is 256 MB (4M rows)',
    strategies: FAST_ONLY,
    timeoutSeconds: 150,
  };
}

const SML_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

// ---------------------------------------------------------------------------------------------
// TIFF
// ---------------------------------------------------------------------------------------------

// TIFF field types.
const TIFF_SHORT = 3;
const TIFF_LONG = 4;

function tiffEntry(tag: number, type: number, value: number): number[] {
  // A SHORT value sits in the first two bytes of the 4-byte value field.
  const field = type === TIFF_SHORT ? [...u16le(value), 0, 0] : u32le(value);
  return [...u16le(tag), ...u16le(type), ...u32le(1), ...field];
}

/**
 * `huge-header.tiff`, 138 bytes: an uncompressed 8-bit grayscale TIFF claiming 50,000 x 50,000
 * pixels in one strip of 16 bytes. `UTIF.decodeImage` runs before quarry's pixel limit is checked:
 * for one uncompressed strip it trusts the header's size over the 16 bytes, allocates 2.5 GB and
 * copies byte by byte, blocking the event loop for about two minutes (2.5 GB resident) before it
 * failed with a coded FILE_UNREADABLE ("Invalid typed array length"): a hang at any sane timeout.
 * Now the header check refuses it: FILE_TOO_LARGE.
 */
export function hugeHeaderTiff(): HostileFile {
  const side = 50_000;
  const entryCount = 9;
  const dataAt = 8 + 2 + entryCount * 12 + 4;
  const entries = [
    tiffEntry(256, TIFF_LONG, side), // ImageWidth
    tiffEntry(257, TIFF_LONG, side), // ImageLength
    tiffEntry(258, TIFF_SHORT, 8), // BitsPerSample
    tiffEntry(259, TIFF_SHORT, 1), // Compression: none
    tiffEntry(262, TIFF_SHORT, 1), // PhotometricInterpretation: black is zero
    tiffEntry(273, TIFF_LONG, dataAt), // StripOffsets
    tiffEntry(277, TIFF_SHORT, 1), // SamplesPerPixel
    tiffEntry(278, TIFF_LONG, side), // RowsPerStrip
    tiffEntry(279, TIFF_LONG, 16), // StripByteCounts
  ].flat();
  const bytes = Uint8Array.from([0x49, 0x49, 0x2a, 0x00, ...u32le(8), ...u16le(entryCount), ...entries, ...u32le(0), ...new Array<number>(16).fill(0x80)]);
  return {
    name: 'huge-header.tiff',
    bytes,
    expect: 'error',
    description: 'TIFF claiming 50,000 x 50,000 pixels with 16 bytes of data',
    strategies: IMAGE_STRATEGIES,
  };
}

/**
 * `huge-second-page.tiff`: a two-page TIFF whose first page is a valid 16 x 16 gray image and
 * whose second directory claims 50,000 x 50,000 pixels over the same 256 bytes. A check of the
 * first directory alone (as image-size makes) passes it; utif2 hung on page 2 as on
 * `huge-header.tiff`. Every directory's header is checked now: FILE_TOO_LARGE.
 */
export function hugeSecondPageTiff(): HostileFile {
  const entryCount = 9;
  const ifdSize = 2 + entryCount * 12 + 4;
  const firstAt = 8;
  const secondAt = firstAt + ifdSize;
  const dataAt = secondAt + ifdSize;
  const ifd = (side: number, next: number): number[] => {
    const entries = [
      tiffEntry(256, TIFF_LONG, side),
      tiffEntry(257, TIFF_LONG, side),
      tiffEntry(258, TIFF_SHORT, 8),
      tiffEntry(259, TIFF_SHORT, 1),
      tiffEntry(262, TIFF_SHORT, 1),
      tiffEntry(273, TIFF_LONG, dataAt),
      tiffEntry(277, TIFF_SHORT, 1),
      tiffEntry(278, TIFF_LONG, side),
      tiffEntry(279, TIFF_LONG, 256),
    ].flat();
    return [...u16le(entryCount), ...entries, ...u32le(next)];
  };
  const bytes = Uint8Array.from([0x49, 0x49, 0x2a, 0x00, ...u32le(firstAt), ...ifd(16, secondAt), ...ifd(50_000, 0), ...new Array<number>(256).fill(0x80)]);
  return {
    name: 'huge-second-page.tiff',
    bytes,
    expect: 'error',
    description: 'TIFF whose second page claims 50,000 x 50,000 pixels',
    strategies: IMAGE_STRATEGIES,
  };
}

// ---------------------------------------------------------------------------------------------
// GIF, WebP, BMP
// ---------------------------------------------------------------------------------------------

/**
 * `huge-frame.gif`: a GIF whose logical screen is 16 x 16 but whose one frame claims 50,000 x
 * 50,000 pixels, with a few bytes of LZW data. The screen alone passes a size check; Skia grew the
 * image to hold the frame and its failed allocation was a fatal assert (SIGILL). Every frame's
 * descriptor is checked now: FILE_TOO_LARGE.
 */
export function hugeFrameGif(): HostileFile {
  const side = 50_000;
  const bytes = concatBytes([
    latin1('GIF89a'),
    // Logical screen 16 x 16, a global color table of 2 entries (black, white).
    Uint8Array.from([...u16le(16), ...u16le(16), 0x80, 0, 0, 0, 0, 0, 255, 255, 255]),
    // Image descriptor at (0, 0), 50,000 x 50,000, no local color table.
    Uint8Array.from([0x2c, ...u16le(0), ...u16le(0), ...u16le(side), ...u16le(side), 0]),
    // LZW minimum code size 2, one sub-block of 4 bytes, end of data; then the trailer.
    Uint8Array.from([2, 4, 0x84, 0x8f, 0xa9, 0x02, 0, 0x3b]),
  ]);
  return {
    name: 'huge-frame.gif',
    bytes,
    expect: 'error',
    description: 'GIF of a 16 x 16 screen holding a 50,000 x 50,000 frame',
    strategies: IMAGE_STRATEGIES,
  };
}

function u24le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
}

/**
 * `huge-header.webp`: an extended WebP (VP8X) whose canvas claims 50,000 x 50,000 pixels, holding
 * a lossless (VP8L) bitstream header of 16,384 x 16,384 and 16 bytes of data. Skia crashed on it
 * (SIGSEGV); the header check refuses it: FILE_TOO_LARGE.
 */
export function hugeHeaderWebp(): HostileFile {
  const side = 50_000;
  const riffChunk = (type: string, data: Uint8Array): Uint8Array =>
    concatBytes([latin1(type), Uint8Array.from(u32le(data.byteLength)), data, new Uint8Array(data.byteLength % 2)]);
  const vp8x = riffChunk('VP8X', Uint8Array.from([0, 0, 0, 0, ...u24le(side - 1), ...u24le(side - 1)]));
  // VP8L: signature 0x2f, then width - 1 and height - 1 in 14 bits each, alpha 0, version 0.
  const max = 16_383;
  const bits = max | (max << 14);
  const vp8l = riffChunk('VP8L', Uint8Array.from([0x2f, ...u32le(bits >>> 0), ...new Array<number>(16).fill(0)]));
  const body = concatBytes([latin1('WEBP'), vp8x, vp8l]);
  const bytes = concatBytes([latin1('RIFF'), Uint8Array.from(u32le(body.byteLength)), body]);
  return { name: 'huge-header.webp', bytes, expect: 'error', description: 'WebP whose canvas claims 50,000 x 50,000 pixels', strategies: IMAGE_STRATEGIES };
}

/**
 * `huge-header.bmp`: a 24-bit BMP whose header claims 50,000 x 50,000 pixels, with 16 bytes of
 * pixel data. Skia's failed allocation was a fatal assert (SIGILL); the header check refuses it:
 * FILE_TOO_LARGE.
 */
export function hugeHeaderBmp(): HostileFile {
  const side = 50_000;
  const dataAt = 14 + 40;
  const pixels = new Array<number>(16).fill(0x80);
  const bytes = Uint8Array.from([
    ...latin1('BM'),
    ...u32le(dataAt + pixels.length),
    ...u32le(0),
    ...u32le(dataAt),
    // BITMAPINFOHEADER: size, width, height, planes, bits per pixel, no compression, image size, resolution, colors.
    ...u32le(40),
    ...u32le(side),
    ...u32le(side),
    ...u16le(1),
    ...u16le(24),
    ...u32le(0),
    ...u32le(pixels.length),
    ...u32le(2835),
    ...u32le(2835),
    ...u32le(0),
    ...u32le(0),
    ...pixels,
  ]);
  return { name: 'huge-header.bmp', bytes, expect: 'error', description: 'BMP whose header claims 50,000 x 50,000 pixels', strategies: IMAGE_STRATEGIES };
}

// ---------------------------------------------------------------------------------------------

/** The generators, by file name (the probe regenerates a file from its name). */
export const HOSTILE_GENERATORS: Readonly<Record<string, () => HostileFile>> = {
  'huge-header.png': hugeHeaderPng,
  'corrupt-palette.png': corruptPalettePng,
  'bad-huffman.jpg': badHuffmanJpeg,
  'corrupt-images.eml': corruptImagesEml,
  'nested-200.eml': nestedAttachmentsEml,
  'cff-charset-loop.pdf': cffCharsetLoopPdf,
  'broken-xref.pdf': brokenXrefPdf,
  'four-million-paragraphs.docx': fourMillionParagraphsDocx,
  'nested-sdt.docx': nestedSdtDocx,
  'four-million-rows.xlsx': fourMillionRowsXlsx,
  'hundred-thousand-pages.pdf': hundredThousandPagesPdf,
  'giant-page-scan.pdf': giantPageScanPdf,
  'huge-header.tiff': hugeHeaderTiff,
  'complete-huge.png': completeHugePng,
  'truncated.jpg': truncatedJpeg,
  'huge-second-page.tiff': hugeSecondPageTiff,
  'huge-frame.gif': hugeFrameGif,
  'huge-header.webp': hugeHeaderWebp,
  'huge-header.bmp': hugeHeaderBmp,
};

/** Every hostile file, generated now (the DOCX of 4M paragraphs takes the longest, well under a second). */
export function hostileFiles(): HostileFile[] {
  return Object.values(HOSTILE_GENERATORS).map((generate) => generate());
}

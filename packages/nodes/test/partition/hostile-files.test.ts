/**
 * The hostile-file generators make what they claim to. Only the bytes are checked here: these
 * files crash, hang or exhaust the process that partitions them (see `hostile-probe.ts`, which
 * partitions each in a child process), so nothing below hands one to a decoder or partitioner.
 * The two image controls are decoded in a child process for the same reason.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { crc32, createInflate, createInflateRaw, inflateRawSync, inflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { simpleParser } from 'mailparser';
import UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ZIP_LIMITS } from '../../src/partition/formats/shared/zip-guard.js';
import {
  badHuffmanJpeg,
  COMPLETE_HUGE_PNG_SIDE,
  completeHugePng,
  hugeFrameGif,
  hugeHeaderBmp,
  hugeHeaderWebp,
  hugeSecondPageTiff,
  TRUNCATED_JPEG_SIDE,
  truncatedJpeg,
  wholeGrayJpeg,
  brokenXrefPdf,
  cffCharsetLoopPdf,
  charsetLoopCff,
  corruptImagesEml,
  corruptPalettePng,
  fourMillionParagraphsDocx,
  HOSTILE_GENERATORS,
  hostileFiles,
  HUGE_DOCX_PARAGRAPHS,
  hugeHeaderPng,
  hugeHeaderTiff,
  hundredThousandPagesPdf,
  NESTED_SDT_DEPTH,
  nestedSdtDocx,
  validGrayJpeg,
  validPalettePng,
} from '../support/hostile-files.js';

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

// ---------------------------------------------------------------------------------------------
// PNG and JPEG structure
// ---------------------------------------------------------------------------------------------

interface PngChunk {
  type: string;
  data: Uint8Array;
  crcOk: boolean;
}

/** The chunks of a PNG, each with whether its CRC is right. */
function pngChunks(bytes: Uint8Array): PngChunk[] {
  const b = Buffer.from(bytes);
  const chunks: PngChunk[] = [];
  for (let at = 8; at < b.length; ) {
    const length = b.readUInt32BE(at);
    const typeAndData = b.subarray(at + 4, at + 8 + length);
    chunks.push({ type: latin1(typeAndData.subarray(0, 4)), data: typeAndData.subarray(4), crcOk: crc32(typeAndData) === b.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

/** The JPEG segments (marker, body) before the scan data. */
function jpegSegments(bytes: Uint8Array): Array<{ marker: number; body: Buffer }> {
  const b = Buffer.from(bytes);
  const out: Array<{ marker: number; body: Buffer }> = [];
  for (let at = 2; b[at] === 0xff && b[at + 1] !== 0xd9; ) {
    const length = b.readUInt16BE(at + 2);
    out.push({ marker: b[at + 1]!, body: b.subarray(at + 4, at + 2 + length) });
    if (b[at + 1] === 0xda) break;
    at += 2 + length;
  }
  return out;
}

/** Code counts (16 lengths) of each DHT segment. */
function huffmanCounts(bytes: Uint8Array): number[][] {
  return jpegSegments(bytes)
    .filter((s) => s.marker === 0xc4)
    .map((s) => [...s.body.subarray(1, 17)]);
}

describe('hostile images', () => {
  it('huge-header.png is 74 bytes whose IHDR claims 50,000 x 50,000 pixels', () => {
    const { name, bytes } = hugeHeaderPng();
    expect(name).toBe('huge-header.png');
    expect(bytes.byteLength).toBe(74);
    const chunks = pngChunks(bytes);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    const ihdr = Buffer.from(chunks[0]!.data);
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)]).toEqual([50_000, 50_000]);
    expect(inflateSync(chunks[1]!.data)).toEqual(Buffer.alloc(6));
  });

  it('corrupt-palette.png differs from a decodable palette PNG only in a PLTE of 11 bytes', () => {
    const chunks = pngChunks(corruptPalettePng().bytes);
    const control = pngChunks(validPalettePng());
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect(chunks[0]!.data[9]).toBe(3); // IHDR color type: palette
    const plte = chunks.find((c) => c.type === 'PLTE')!;
    expect(plte.data.byteLength).toBe(11);
    expect(plte.data.byteLength % 3).not.toBe(0);
    expect(chunks.filter((c) => c.type !== 'PLTE')).toEqual(control.filter((c) => c.type !== 'PLTE'));
  });

  it('bad-huffman.jpg declares 272 Huffman codes in one table, the control the standard 12', () => {
    const sum = (counts: number[]): number => counts.reduce((a, b) => a + b, 0);
    expect(huffmanCounts(badHuffmanJpeg().bytes).map(sum)).toEqual([272, 1]);
    expect(huffmanCounts(validGrayJpeg()).map(sum)).toEqual([12, 1]);
    const markers = (b: Uint8Array): number[] => jpegSegments(b).map((s) => s.marker);
    expect(markers(badHuffmanJpeg().bytes)).toEqual(markers(validGrayJpeg()));
  });

  it('the controls decode with @napi-rs/canvas (in a child process)', () => {
    const canvas = createRequire(import.meta.url).resolve('@napi-rs/canvas');
    const script = `const { loadImage } = require(${JSON.stringify(canvas)});
      Promise.all(process.argv.slice(1).map((b) => loadImage(Buffer.from(b, 'base64'))))
        .then((images) => console.log(images.map((i) => i.width + 'x' + i.height).join(' ')));`;
    const images = [validPalettePng(), validGrayJpeg()].map((b) => Buffer.from(b).toString('base64'));
    const run = spawnSync(process.execPath, ['-e', script, ...images], { encoding: 'utf8', timeout: 30_000 });
    expect(run.signal).toBeNull();
    expect(run.stdout.trim()).toBe('16x16 8x8');
  });

  it('huge-header.tiff is 138 bytes whose IFD claims 50,000 x 50,000 pixels in one 16-byte strip', () => {
    const { bytes } = hugeHeaderTiff();
    expect(bytes.byteLength).toBe(138);
    // Reads the IFDs only; decoding the image is what hangs.
    const [ifd] = UTIF.decode(Buffer.from(bytes));
    expect([ifd!.t256, ifd!.t257, ifd!.t258, ifd!.t259, ifd!.t279]).toEqual([[50_000], [50_000], [8], [1], [16]]);
    expect(Number((ifd!.t273 as number[])[0]) + 16).toBe(bytes.byteLength);
  });

  it('complete-huge.png is a complete PNG of 20,000 x 20,000 black pixels, every CRC and the Adler-32 right', async () => {
    const { bytes } = completeHugePng();
    const chunks = pngChunks(bytes);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    const ihdr = Buffer.from(chunks[0]!.data);
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([COMPLETE_HUGE_PNG_SIDE, COMPLETE_HUGE_PNG_SIDE, 8, 2]);
    // Inflated as a stream (1.2 GB): every scanline byte is 0, and zlib checks the Adler-32.
    const chunkSize = 1 << 20;
    const zeros = Buffer.alloc(chunkSize);
    let size = 0;
    let nonZero = 0;
    for await (const chunk of Readable.from([Buffer.from(chunks[1]!.data)]).pipe(createInflate({ chunkSize }))) {
      const c = chunk as Buffer;
      size += c.length;
      if (!c.equals(zeros.subarray(0, c.length))) nonZero++;
    }
    expect(size).toBe(COMPLETE_HUGE_PNG_SIDE * (1 + COMPLETE_HUGE_PNG_SIDE * 3));
    expect(nonZero).toBe(0);
  });

  it('truncated.jpg is the first half of a whole JPEG, cut in its scan data', () => {
    const whole = wholeGrayJpeg();
    const { bytes } = truncatedJpeg();
    expect(latin1(whole).startsWith(latin1(bytes))).toBe(true);
    const scanStart = latin1(whole).indexOf('\xff\xda');
    const scanData = whole.byteLength - 2 - (scanStart + 2 + 8);
    expect(scanData).toBe(((TRUNCATED_JPEG_SIDE / 8) ** 2 * 3) / 8);
    expect(bytes.byteLength).toBe(whole.byteLength - 2 - scanData / 2);
    expect([...whole.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('the controls and the whole JPEG decode with sharp (in a child process); the truncated one does not', () => {
    const sharp = createRequire(import.meta.url).resolve('sharp');
    const script = `const sharp = require(${JSON.stringify(sharp)});
      Promise.all(process.argv.slice(1).map((b) => sharp(Buffer.from(b, 'base64'), { failOn: 'error' }).raw().toBuffer({ resolveWithObject: true })
        .then(({ info }) => info.width + 'x' + info.height, (e) => 'error')))
        .then((r) => console.log(r.join(' ')));`;
    const images = [validPalettePng(), validGrayJpeg(), wholeGrayJpeg(), truncatedJpeg().bytes].map((b) => Buffer.from(b).toString('base64'));
    const run = spawnSync(process.execPath, ['-e', script, ...images], { encoding: 'utf8', timeout: 30_000 });
    expect(run.signal).toBeNull();
    expect(run.stdout.trim()).toBe('16x16 8x8 512x512 error');
  });

  it('huge-second-page.tiff chains a 16 x 16 page to one claiming 50,000 x 50,000 over the same 256 bytes', () => {
    const { bytes } = hugeSecondPageTiff();
    // Reads the IFDs only; decoding page 2 is what hangs.
    const ifds = UTIF.decode(Buffer.from(bytes));
    expect(ifds.map((d) => [d.t256, d.t257, d.t279])).toEqual([
      [[16], [16], [256]],
      [[50_000], [50_000], [256]],
    ]);
    expect(Number((ifds[1]!.t273 as number[])[0]) + 256).toBe(bytes.byteLength);
  });

  it('huge-frame.gif has a 16 x 16 screen and one 50,000 x 50,000 frame', () => {
    const b = Buffer.from(hugeFrameGif().bytes);
    expect(latin1(b.subarray(0, 6))).toBe('GIF89a');
    expect([b.readUInt16LE(6), b.readUInt16LE(8)]).toEqual([16, 16]);
    // After the 13-byte header and a global color table of 2 entries: the image descriptor.
    expect(b[19]).toBe(0x2c);
    expect([b.readUInt16LE(24), b.readUInt16LE(26)]).toEqual([50_000, 50_000]);
    expect(b[b.length - 1]).toBe(0x3b);
  });

  it('huge-header.webp is a RIFF WebP whose VP8X canvas is 50,000 x 50,000', () => {
    const b = Buffer.from(hugeHeaderWebp().bytes);
    expect([latin1(b.subarray(0, 4)), b.readUInt32LE(4), latin1(b.subarray(8, 16))]).toEqual(['RIFF', b.length - 8, 'WEBPVP8X']);
    expect([b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1]).toEqual([50_000, 50_000]);
    expect(latin1(b.subarray(30, 34))).toBe('VP8L');
  });

  it('huge-header.bmp is a 24-bit BMP claiming 50,000 x 50,000 pixels over 16 bytes', () => {
    const b = Buffer.from(hugeHeaderBmp().bytes);
    expect([latin1(b.subarray(0, 2)), b.readUInt32LE(2), b.readUInt32LE(10)]).toEqual(['BM', b.length, 54]);
    expect([b.readInt32LE(18), b.readInt32LE(22), b.readUInt16LE(28)]).toEqual([50_000, 50_000, 24]);
    expect(b.length - 54).toBe(16);
  });

  it('corrupt-images.eml carries the corrupt PNG and JPEG as attachments', async () => {
    const mail = await simpleParser(Buffer.from(corruptImagesEml().bytes));
    expect(mail.text?.trim()).toBe('Please find the scans attached.');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['corrupt-palette.png', 'image/png'],
      ['bad-huffman.jpg', 'image/jpeg'],
    ]);
    expect(new Uint8Array(mail.attachments[0]!.content)).toEqual(corruptPalettePng().bytes);
    expect(new Uint8Array(mail.attachments[1]!.content)).toEqual(badHuffmanJpeg().bytes);
  });
});

// ---------------------------------------------------------------------------------------------
// PDF structure
// ---------------------------------------------------------------------------------------------

/** The offsets of the classic xref table, by object number. */
function xrefOffsets(pdf: string): number[] {
  const table = pdf.slice(pdf.lastIndexOf('\nxref\n') + 1);
  return [...table.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
}

/** The object number whose `N 0 obj` header starts at `offset`, if any. */
function objectAt(pdf: string, offset: number): number | undefined {
  const m = /^(\d+) 0 obj\n/.exec(pdf.slice(offset, offset + 20));
  return m ? Number(m[1]) : undefined;
}

/** The body of object `num`, found by scanning, not through the xref. */
function objectBody(pdf: string, num: number): string {
  const start = pdf.indexOf(`\n${num} 0 obj\n`) + `\n${num} 0 obj\n`.length;
  return pdf.slice(start, pdf.indexOf('\nendobj\n', start));
}

describe('hostile PDFs', () => {
  it('cff-charset-loop.pdf embeds a Type1C FontFile3 stream, the CFF of the loop', () => {
    const pdf = latin1(cffCharsetLoopPdf().bytes);
    expect(xrefOffsets(pdf).map((o) => objectAt(pdf, o))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(objectBody(pdf, 6)).toContain('/FontFile3 7 0 R');
    const fontFile = objectBody(pdf, 7);
    expect(fontFile).toMatch(/^<< \/Subtype \/Type1C \/Length \d+ >>\nstream\n/);
    const data = fontFile.slice(fontFile.indexOf('stream\n') + 7, fontFile.lastIndexOf('\nendstream'));
    expect(Buffer.from(data, 'latin1')).toEqual(Buffer.from(charsetLoopCff()));
  });

  it("the CFF's charset (format 1) names fewer glyphs than its CharStrings hold, then the data ends", () => {
    const cff = charsetLoopCff();
    expect([...cff.subarray(0, 4)]).toEqual([1, 0, 4, 1]);
    // Top DICT (second INDEX, after a one-name Name INDEX): CharStrings (17) and charset (15).
    const topDict = Buffer.from(cff.subarray(15, 27));
    const charStringsAt = topDict.readUInt32BE(1);
    const charsetAt = topDict.readUInt32BE(7);
    expect([topDict[0], topDict[5], topDict[6], topDict[11]]).toEqual([29, 17, 29, 15]);
    expect((cff[charStringsAt]! << 8) | cff[charStringsAt + 1]!).toBe(100);
    // Format 1, one range of nLeft 0 covers one glyph past .notdef, and nothing follows.
    expect([...cff.subarray(charsetAt)]).toEqual([1, 0, 1, 0]);
  });

  it('broken-xref.pdf points the xref entries of both pages at the objects after them', () => {
    const pdf = latin1(brokenXrefPdf().bytes);
    expect(xrefOffsets(pdf).map((o) => objectAt(pdf, o))).toEqual([1, 2, 4, 4, 6, 6, 7]);
    expect(objectBody(pdf, 2)).toContain('/Kids [3 0 R 5 0 R] /Count 2');
    expect(objectBody(pdf, 3)).toContain('/Type /Page');
    expect(objectBody(pdf, 5)).toContain('/Type /Page');
  });

  it('hundred-thousand-pages.pdf is about 2 KB and its page tree has 100,000 leaves', () => {
    const { bytes } = hundredThousandPagesPdf();
    expect(bytes.byteLength).toBeLessThan(2_500);
    const pdf = latin1(bytes);
    expect(xrefOffsets(pdf).map((o) => objectAt(pdf, o))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(objectBody(pdf, 2)).toBe('<< /Type /Pages /Kids 3 0 R /Count 100000 >>');
    // Leaves under the kids array `num`: its inline /Page dictionaries, plus those of the arrays
    // its inline /Pages dictionaries refer to.
    const leaves = (num: number): number => {
      const body = objectBody(pdf, num);
      const pages = body.match(/\/Type \/Page /g)?.length ?? 0;
      const subtrees = [...body.matchAll(/\/Type \/Pages \/Kids (\d+) 0 R/g)].map((m) => Number(m[1]));
      return pages + subtrees.reduce((n, kids) => n + leaves(kids), 0);
    };
    expect(leaves(3)).toBe(100_000);
  });
});

// ---------------------------------------------------------------------------------------------
// DOCX structure
// ---------------------------------------------------------------------------------------------

/** The raw deflated data and declared CRC/size of a ZIP entry, read from its local header. */
function localEntry(zip: Uint8Array, name: string): { deflated: Uint8Array; crc: number; size: number } {
  const b = Buffer.from(zip);
  for (let at = 0; b.readUInt32LE(at) === 0x04034b50; ) {
    const compressed = b.readUInt32LE(at + 18);
    const nameLength = b.readUInt16LE(at + 26);
    const dataAt = at + 30 + nameLength + b.readUInt16LE(at + 28);
    if (latin1(b.subarray(at + 30, at + 30 + nameLength)) === name) {
      return { deflated: b.subarray(dataAt, dataAt + compressed), crc: b.readUInt32LE(at + 14), size: b.readUInt32LE(at + 22) };
    }
    at = dataAt + compressed;
  }
  throw new Error(`no entry ${name}`);
}

/** What {@link inflateCounting} saw. */
interface InflatedSummary {
  size: number;
  crc: number;
  /** Occurrences of the needle. */
  count: number;
  /** The first 200 and last 100 bytes, as Latin-1. */
  head: string;
  tail: string;
}

function occurrences(haystack: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Inflates a raw deflate stream chunk by chunk (never whole), counting bytes, CRC and `needle`. */
async function inflateCounting(deflated: Uint8Array, needle: string): Promise<InflatedSummary> {
  const pattern = Buffer.from(needle);
  const summary: InflatedSummary = { size: 0, crc: 0, count: 0, head: '', tail: '' };
  let carry = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  for await (const chunk of Readable.from([Buffer.from(deflated)]).pipe(createInflateRaw())) {
    const c = chunk as Buffer;
    if (summary.size === 0) summary.head = latin1(c.subarray(0, 200));
    summary.size += c.length;
    summary.crc = crc32(c, summary.crc);
    // A match across the seam of two chunks uses bytes of both, so this counts none twice.
    summary.count += occurrences(Buffer.concat([carry, c.subarray(0, pattern.length - 1)]), pattern) + occurrences(c, pattern);
    carry = Buffer.from(c.subarray(-(pattern.length - 1)));
    tail = Buffer.concat([tail, c.subarray(-100)]).subarray(-100);
  }
  summary.tail = latin1(tail);
  return summary;
}

describe('hostile DOCX files', () => {
  it('four-million-paragraphs.docx is a valid ZIP under 1 MB whose document.xml is >= 250 MB of 4M paragraphs', async () => {
    const { bytes } = fourMillionParagraphsDocx();
    expect(bytes.byteLength).toBeLessThan(1_000_000);
    const zip = await JSZip.loadAsync(bytes);
    expect(Object.keys(zip.files).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    const entry = localEntry(bytes, 'word/document.xml');
    const inflated = await inflateCounting(entry.deflated, '<w:p>');
    expect(inflated.size).toBe(entry.size);
    expect(inflated.crc).toBe(entry.crc);
    expect(inflated.size).toBeGreaterThanOrEqual(250_000_000);
    // Under quarry's part limit: the part is read whole, not refused as a bomb.
    expect(inflated.size).toBeLessThan(DEFAULT_ZIP_LIMITS.maxPartBytes);
    expect(inflated.count).toBe(HUGE_DOCX_PARAGRAPHS);
    expect(inflated.head).toMatch(/^<\?xml [^>]*\?><w:document xmlns:w="[^"]+"><w:body><w:p>/);
    expect(inflated.tail).toMatch(/<\/w:t><\/w:r><\/w:p><\/w:body><\/w:document>$/);
  });

  it('nested-sdt.docx is a valid ZIP of about 11 KB whose document.xml nests 100,000 w:sdt', async () => {
    const { bytes } = nestedSdtDocx();
    expect(bytes.byteLength).toBeLessThan(16_000);
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(latin1(inflateRawSync(localEntry(bytes, 'word/document.xml').deflated))).toBe(xml);
    // Depth of open w:sdt elements at the paragraph: every one is still open there.
    const before = xml.slice(0, xml.indexOf('<w:p>'));
    expect(before.split('<w:sdt>').length - 1).toBe(NESTED_SDT_DEPTH);
    expect(before).not.toContain('</w:sdt>');
    expect(xml.split('</w:sdt>').length - 1).toBe(NESTED_SDT_DEPTH);
  });
});

describe('hostileFiles', () => {
  it('lists every generator once, by the name its file carries, deterministically', () => {
    const files = hostileFiles();
    expect(files.map((f) => f.name)).toEqual(Object.keys(HOSTILE_GENERATORS));
    for (const f of files) expect(f.name).toMatch(/\.(png|jpg|eml|pdf|docx|xlsx|tiff|gif|webp|bmp)$/);
    const again = hostileFiles();
    files.forEach((f, i) => expect(crc32(f.bytes)).toBe(crc32(again[i]!.bytes)));
  });
});

import { readdirSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { fileTypeFromBuffer } from 'file-type/core';
import { canonicalMimeType, detectFileType, fileExtension, looksLikeText, startsWithPdfHeader } from '../../src/partition/detect-filetype.js';
import { utf8 } from './format-options.js';
import { corpusBytes, corpusDir, expectedElements, hasCorpus } from './reference-metrics.js';
import { EXTENSION_MIME_TYPES, TEXT_FORMAT_EXTENSIONS } from '../../src/partition/formats/index.js';

/** Deterministic pseudo-random bytes (a linear congruential generator) with no known signature. */
function noise(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  out[0] = 0x00;
  out[1] = 0xd7;
  return out;
}

async function mimeOf(bytes: Uint8Array, name: string): Promise<string> {
  return (await detectFileType(bytes, name)).mime;
}

async function docxBytes(withContentTypes: boolean): Promise<Uint8Array> {
  const zip = new JSZip();
  if (withContentTypes) {
    zip.file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
  }
  zip.file('word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>');
  return zip.generateAsync({ type: 'uint8array' });
}

/** The bytes with the central directory's first signature zeroed: the zip's index is broken, its entries intact. */
function damageCentralDirectory(zip: Uint8Array): Uint8Array {
  const out = Buffer.from(zip);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  out.fill(0, out.readUInt32LE(eocd + 16), out.readUInt32LE(eocd + 16) + 4);
  return new Uint8Array(out);
}

describe('detectFileType', () => {
  it('rejects empty files with FILE_EMPTY', async () => {
    const err = await detectFileType(new Uint8Array(), 'empty.txt').catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILE_EMPTY');
  });

  it('rejects unknown binary content with FILETYPE_UNSUPPORTED naming the file and type', async () => {
    const bytes = noise(4096);
    const err = await detectFileType(bytes, 'blob.bin').catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILETYPE_UNSUPPORTED');
    expect(String((err as Error).message)).toContain('blob.bin');
    expect((err as { details: Record<string, unknown> }).details).toMatchObject({ filename: 'blob.bin', filetype: 'application/octet-stream' });
  });

  it('sniffs text formats from content', async () => {
    expect(await mimeOf(utf8('<!DOCTYPE html><html><body><p>x</p></body></html>'), 'page')).toBe('text/html');
    expect(await mimeOf(utf8('  <HTML><body>hi</body></HTML>'), 'page.txt')).toBe('text/html');
    expect(await mimeOf(utf8('<?xml version="1.0"?>\n<root><item>1</item></root>'), 'data')).toBe('application/xml');
    expect(await mimeOf(utf8('<?xml version="1.0"?>\n<!-- generated -->\n<html><body/></html>'), 'page')).toBe('text/html');
    expect(await mimeOf(utf8('{"a": [1, 2, 3]}'), 'data.txt')).toBe('application/json');
    expect(await mimeOf(utf8('[1, 2'), 'data.txt')).toBe('text/plain');
    expect(await mimeOf(utf8('From: a@example.com\nTo: b@example.com\nSubject: Hi\n\nBody text'), 'message')).toBe('message/rfc822');
    expect(await mimeOf(utf8('Note: this is not mail\nIt is text.'), 'notes')).toBe('text/plain');
    expect(await mimeOf(utf8('name,age\nann,3\nbob,4\n'), 'people')).toBe('text/csv');
    expect(await mimeOf(utf8('Just some words in a file.'), 'words.txt')).toBe('text/plain');
  });

  it('trusts the extension of text formats without magic numbers', async () => {
    expect(await mimeOf(utf8('# Title\n\nText'), 'README.md')).toBe('text/markdown');
    expect(await mimeOf(utf8('a,b\n1,2'), 'x.csv')).toBe('text/csv');
    expect(await mimeOf(utf8('a\tb\n1\t2'), 'x.tsv')).toBe('text/tsv');
    expect(await mimeOf(utf8('From: nobody'), 'mail.eml')).toBe('message/rfc822');
    expect(await mimeOf(utf8('not json at all'), 'broken.json')).toBe('application/json');
  });

  it('lets every text extension of the formats table decide over content that sniffs as JSON', async () => {
    // The table marks its text formats; the extensions of binary and plain-text formats do not decide.
    expect([...TEXT_FORMAT_EXTENSIONS]).toEqual(expect.arrayContaining(['.md', '.html', '.csv', '.eml', '.xml', '.rst', '.org']));
    expect(['.pdf', '.docx', '.txt', '.py'].filter((e) => TEXT_FORMAT_EXTENSIONS.has(e))).toEqual([]);
    for (const ext of TEXT_FORMAT_EXTENSIONS) expect([ext, await mimeOf(utf8('{"a": 1}'), `data${ext}`)]).toEqual([ext, EXTENSION_MIME_TYPES[ext]]);
    expect(await mimeOf(utf8('{"a": 1}'), 'data.py')).toBe('application/json');
  });

  it('reads windows-1252 text as text', async () => {
    expect(await mimeOf(iconv.encode('Crème brûlée à la carte, naïve café.', 'windows-1252'), 'menu')).toBe('text/plain');
  });

  it('detects binary formats from magic numbers, whatever the extension', async () => {
    expect(await mimeOf(utf8('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n'), 'report.txt')).toBe('application/pdf');
    expect(await mimeOf(await docxBytes(true), 'doc.bin')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('takes a PDF by its header as file-type does, and nothing else', async () => {
    for (const bytes of [utf8('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n'), utf8('%PDF'), utf8('%PDX-1.4'), utf8('%!PS-Adobe-3.0'), utf8(' %PDF-1.4')]) {
      expect(startsWithPdfHeader(bytes)).toBe((await fileTypeFromBuffer(bytes))?.mime === 'application/pdf');
    }
  });

  it('falls back to the extension for a zip file-type cannot name', async () => {
    expect(await mimeOf(await docxBytes(false), 'legacy.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(await mimeOf(await docxBytes(false), 'archive.zip')).toBe('application/zip');
  });

  it('takes a damaged zip by its extension, or answers FILE_UNREADABLE naming the file without one', async () => {
    const damaged = damageCentralDirectory(await docxBytes(true));
    expect(await mimeOf(damaged, 'report.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const err = await detectFileType(damaged, 'report').catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toMatch(/^report: damaged content/);
  });
});

describe('MIME helpers', () => {
  it('canonicalizes aliases and drops parameters', () => {
    expect(canonicalMimeType('text/x-markdown')).toBe('text/markdown');
    expect(canonicalMimeType('TEXT/XML; charset=utf-8')).toBe('application/xml');
    expect(canonicalMimeType('text/tab-separated-values')).toBe('text/tsv');
    expect(canonicalMimeType('application/pdf')).toBe('application/pdf');
  });

  it('extracts lower-case extensions', () => {
    expect(fileExtension('/a/b/Report.PDF')).toBe('.pdf');
    expect(fileExtension('C:\\docs\\notes.txt')).toBe('.txt');
    expect(fileExtension('Makefile')).toBe('');
    expect(fileExtension('.bashrc')).toBe('');
  });

  it('tells text from binary', () => {
    expect(looksLikeText(utf8('plain text\nwith lines\n'))).toBe(true);
    expect(looksLikeText(new Uint8Array([0x48, 0x00, 0x49]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0xff, 0xfe, 0x48, 0x00]))).toBe(true);
  });
});

const CORPUS_TYPES: Record<string, string> = {
  '2023-half-year-analyses-by-segment.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'DA-619p.pdf': 'application/pdf',
  'arbitrary-records.json': 'application/json',
  'codeblock.md': 'text/markdown',
  'email-no-utf8-2014-03-17.111517.eml': 'message/rfc822',
  'fake-email-attachment.eml': 'message/rfc822',
  'korean-text-with-tables.pdf': 'application/pdf',
  'loremipsum-flat.pdf': 'application/pdf',
  'reliance.pdf': 'application/pdf',
  'spring-weather.html.json': 'application/json',
};

describe.skipIf(!hasCorpus)('corpus file types (skipped without /work/shared/corpus)', () => {
  const names = hasCorpus ? readdirSync(path.join(corpusDir, 'docs')) : [];

  it('matches the reference filetype of every document with a reference output', async () => {
    let checked = 0;
    for (const name of names) {
      let want = CORPUS_TYPES[name];
      if (!want) {
        const expected = expectedElements(name);
        want = expected[0]!.metadata.filetype as string;
      }
      expect({ name, mime: await mimeOf(corpusBytes(name), name) }).toEqual({ name, mime: want });
      checked++;
    }
    expect(checked).toBe(names.length);
  });

  it('detects e-mail and HTML without their extensions', async () => {
    expect(await mimeOf(corpusBytes('fake-email-attachment.eml'), 'message')).toBe('message/rfc822');
    expect(await mimeOf(corpusBytes('email-no-utf8-2014-03-17.111517.eml'), 'message')).toBe('message/rfc822');
    expect(await mimeOf(corpusBytes('example-10k-1p.html'), 'filing')).toBe('text/html');
    expect(await mimeOf(corpusBytes('ideas-page.html'), 'essay')).toBe('text/html');
    expect(await mimeOf(corpusBytes('factbook.xml'), 'factbook')).toBe('application/xml');
  });
});

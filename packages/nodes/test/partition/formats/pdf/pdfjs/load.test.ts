import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyPdfError, loadPdfjs, pdfjsAssetDirs, type PdfOpenError, withPdf } from '../../../../../src/partition/formats/pdf/pdfjs/load.js';
import { makePdf, textLines } from '../fixture.js';

const nodesRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

describe('loadPdfjs', () => {
  it("leaves the engine's own Array.prototype.push and JSON in place", async () => {
    const pdfjs = await loadPdfjs();
    expect(typeof pdfjs.getDocument).toBe('function');
    for (const fn of [Array.prototype.push, JSON.parse, JSON.stringify]) expect(Function.prototype.toString.call(fn)).toContain('[native code]');
  });

  it("inflates FlateDecode content streams with pdf.js's own decoder, not DecompressionStream (patches/pdfjs-dist)", async () => {
    const Native = globalThis.DecompressionStream;
    let constructed = 0;
    globalThis.DecompressionStream = class extends Native {
      constructor(format: ConstructorParameters<typeof Native>[0]) {
        super(format);
        constructed++;
      }
    };
    try {
      const bytes = makePdf([{ texts: textLines(['compressed page text']) }], { compress: true });
      const text = await withPdf(bytes, {}, async (doc) => {
        const content = await (await doc.getPage(1)).getTextContent();
        return content.items.map((item) => ('str' in item ? item.str : '')).join('');
      });
      expect(text).toBe('compressed page text');
      expect(constructed).toBe(0);
    } finally {
      globalThis.DecompressionStream = Native;
    }
  });

  it('points pdf.js at the font and CMap data vendored inside the package', () => {
    const dirs = pdfjsAssetDirs();
    const vendor = path.join(nodesRoot, 'vendor', 'pdfjs') + path.sep;
    expect(dirs.standardFontDataUrl).toBe(`${vendor}standard_fonts${path.sep}`);
    expect(dirs.cMapUrl).toBe(`${vendor}cmaps${path.sep}`);
    expect(existsSync(path.join(dirs.standardFontDataUrl, 'LiberationSans-Regular.ttf'))).toBe(true);
    expect(existsSync(path.join(dirs.cMapUrl, 'UniJIS-UTF16-H.bcmap'))).toBe(true);
  });

  it('loads the patched pdf.js vendored inside the package, with its licence', () => {
    const vendor = path.join(nodesRoot, 'vendor', 'pdfjs');
    expect(readFileSync(path.join(vendor, 'pdf.worker.mjs'), 'utf8')).toContain('CFF charset runs past the end of the font');
    expect(readFileSync(path.join(vendor, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(readFileSync(new URL('../../../../../src/partition/formats/pdf/pdfjs/load.ts', import.meta.url), 'utf8')).not.toMatch(/import\('pdfjs-dist/);
  });
});

describe('classifyPdfError', () => {
  it('maps pdf.js exceptions by name', () => {
    const named = (name: string, code?: number) => Object.assign(new Error(name), { name, code });
    expect((classifyPdfError(named('PasswordException', 1)) as PdfOpenError).kind).toBe('password');
    expect((classifyPdfError(named('PasswordException', 2)) as PdfOpenError).message).toContain('incorrect');
    expect((classifyPdfError(named('InvalidPDFException')) as PdfOpenError).kind).toBe('unreadable');
    expect((classifyPdfError(named('AbortException')) as PdfOpenError).kind).toBe('aborted');
    const other = new TypeError('a bug');
    expect(classifyPdfError(other)).toBe(other);
    const ac = new AbortController();
    ac.abort();
    expect((classifyPdfError(other, ac.signal) as PdfOpenError).kind).toBe('aborted');
  });
});

describe('withPdf', () => {
  it('opens a document, runs the callback and closes it', async () => {
    const pages = await withPdf(makePdf([{ texts: textLines(['one']) }, { texts: textLines(['two']) }]), {}, async (doc) => doc.numPages);
    expect(pages).toBe(2);
  });

  it('rejects at once when the signal aborts, even if the callback never settles', async () => {
    const ac = new AbortController();
    const pending = withPdf(makePdf([{ texts: textLines(['x']) }]), { signal: ac.signal }, () => {
      ac.abort();
      return new Promise<never>(() => undefined);
    });
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

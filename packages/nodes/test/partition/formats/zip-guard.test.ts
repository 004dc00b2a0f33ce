import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { OoxmlPackage } from '../../../src/partition/formats/ooxml-package.js';
import { assertZipWithinLimits, DEFAULT_ZIP_LIMITS } from '../../../src/partition/formats/zip-guard.js';

const MiB = 2 ** 20;

async function zipOf(parts: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(parts)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

describe('zip guard', () => {
  it('keeps defaults far above real documents and far below a bomb', () => {
    expect(DEFAULT_ZIP_LIMITS).toEqual({ maxPartBytes: 256 * MiB, maxTotalBytes: 1024 * MiB, maxEntries: 50_000 });
  });

  it('refuses a part that inflates past the part limit, before inflating all of it', async () => {
    // 16 MiB of one letter deflate to a few kB: the shape of a decompression bomb.
    const bytes = await zipOf({ 'word/document.xml': `<w>${'A'.repeat(16 * MiB)}</w>`, 'small.xml': '<a/>' });
    expect(bytes.byteLength).toBeLessThan(64 * 1024);
    const pkg = await OoxmlPackage.open(bytes, 'bomb.docx', 'DOCX', { zipLimits: { maxPartBytes: 1 * MiB, maxTotalBytes: 8 * MiB, maxEntries: 10 } });
    expect(await pkg.xml('small.xml')).toBeDefined();
    await expect(pkg.xml('word/document.xml')).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_LARGE',
      message: expect.stringContaining('bomb.docx: refused as a DOCX file: part word/document.xml inflates beyond 1 MiB'),
    });
  });

  it('refuses parts that pass one by one but not together', async () => {
    const parts = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}.xml`, `<p>${'B'.repeat(MiB)}</p>`]));
    const pkg = await OoxmlPackage.open(await zipOf(parts), 'many.pptx', 'PPTX', { zipLimits: { maxPartBytes: 2 * MiB, maxTotalBytes: 3 * MiB, maxEntries: 10 } });
    await pkg.bytes('p0.xml');
    await pkg.bytes('p1.xml');
    await expect(pkg.bytes('p2.xml')).rejects.toMatchObject({ code: 'ARCHIVE_TOO_LARGE', message: expect.stringContaining('in total') });
  });

  it('refuses an archive listing too many entries', async () => {
    const parts = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`e${i}.xml`, '<e/>']));
    await expect(OoxmlPackage.open(await zipOf(parts), 'wide.odt', 'ODT', { zipLimits: { ...DEFAULT_ZIP_LIMITS, maxEntries: 20 } })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_LARGE',
      message: expect.stringContaining('lists 30 entries (limit 20)'),
    });
  });

  it('measures a whole archive before a library that inflates it all (XLSX)', async () => {
    const bomb = await zipOf({ 'xl/worksheets/sheet1.xml': `<x>${'C'.repeat(4 * MiB)}</x>` });
    await expect(assertZipWithinLimits(bomb, 'bomb.xlsx', 'XLSX', { maxPartBytes: MiB, maxTotalBytes: 8 * MiB, maxEntries: 10 })).rejects.toMatchObject({ code: 'ARCHIVE_TOO_LARGE' });
    await expect(assertZipWithinLimits(bomb, 'ok.xlsx', 'XLSX')).resolves.toBeUndefined();
    await expect(assertZipWithinLimits(new TextEncoder().encode('not a zip'), 'fake.xlsx', 'XLSX')).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});

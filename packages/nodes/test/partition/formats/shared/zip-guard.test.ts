import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { OoxmlPackage } from '../../../../src/partition/formats/shared/ooxml-package.js';
import { DEFAULT_ZIP_LIMITS } from '../../../../src/partition/formats/shared/zip-guard.js';

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
    const pkg = await OoxmlPackage.open(await zipOf(parts), 'many.pptx', 'PPTX', {
      zipLimits: { maxPartBytes: 2 * MiB, maxTotalBytes: 3 * MiB, maxEntries: 10 },
    });
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

  it("words a damaged archive for the user and keeps the ZIP reader's message in details", async () => {
    const bytes = await zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': `<w:document>${'text '.repeat(200)}</w:document>` });
    const cases: Array<[string, Uint8Array, RegExp, RegExp]> = [
      [
        'cut short',
        bytes.slice(0, bytes.length - 30),
        /the ZIP archive is damaged or cut short: its directory of members is missing/,
        /end of central directory/,
      ],
      [
        'a broken directory entry',
        withZeroed(bytes, centralDirectoryAt(bytes), 4),
        /the ZIP archive is damaged: its directory of members is corrupt/,
        /Central-File-Header|central dir/i,
      ],
    ];
    for (const [what, damaged, sentence, reason] of cases) {
      const err = await OoxmlPackage.open(damaged, 'report.docx', 'DOCX').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect({ what, err }).toMatchObject({
        what,
        err: {
          code: 'FILE_UNREADABLE',
          message: expect.stringMatching(/^report\.docx: not a valid DOCX \(/),
          details: { filename: 'report.docx', reason: expect.stringMatching(reason) },
        },
      });
      expect((err as Error).message).toMatch(sentence);
      expect((err as Error).message).not.toMatch(/Corrupted zip|Central-File-Header|End of data/);
    }
  });

  it('words a member whose compressed data is corrupt', async () => {
    // Numbers that deflate poorly, so the member's data is long.
    const text = Array.from({ length: 2000 }, (_, i) => ((i * 7919) % 10007).toString(36)).join(' ');
    const bytes = await zipOf({ 'word/document.xml': `<w:document>${text}</w:document>` });
    expect(bytes.length).toBeGreaterThan(2000);
    // The deflate data starts after the 30-byte local header, the name and the extra field.
    const header = Buffer.from(bytes);
    const dataAt = 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const damaged = bytes.slice();
    for (let i = dataAt + 100; i < dataAt + 130; i++) damaged[i] = 0xff;
    const pkg = await OoxmlPackage.open(damaged, 'report.docx', 'DOCX');
    const err = await pkg.xml('word/document.xml').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: 'report.docx: not a valid DOCX (the ZIP archive is damaged: member word/document.xml cannot be decompressed)',
      details: { member: 'word/document.xml' },
    });
  });
});

/** Offset of the first central directory header (from the end-of-central-directory record). */
function centralDirectoryAt(zip: Uint8Array): number {
  const b = Buffer.from(zip);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  return b.readUInt32LE(eocd + 16);
}

function withZeroed(bytes: Uint8Array, at: number, length: number): Uint8Array {
  const out = bytes.slice();
  out.fill(0, at, at + length);
  return out;
}

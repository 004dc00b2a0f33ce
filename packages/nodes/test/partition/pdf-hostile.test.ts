/**
 * Hostile PDFs, each partitioned (`fast`) in a child process of its own by `probeFile`: a PDF whose
 * page tree claims 100,000 pages is refused on opening, a CFF font whose charset runs off its end
 * no longer loops forever, and a broken xref table no longer ends the process with an unhandled
 * rejection. Each child must exit normally, with peak resident memory under a bound (a child that
 * loads tsx and pdf.js alone peaks at about 410 MB).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenXrefPdf, cffCharsetLoopPdf, giantPageScanPdf, hundredThousandPagesPdf, type HostileFile } from '../support/hostile-files.js';
import { probeFile, type ProbeResult } from '../support/hostile-probe.js';

// Measured 405-440 MB on each file.
const MAX_RSS_MB = 600;
// Not a timing bound: long enough for a loaded machine, short enough that a hang fails the test.
const PROBE_TIMEOUT_MS = 90_000;

const dir = mkdtempSync(path.join(tmpdir(), 'pdf-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(file: HostileFile, strategy: 'fast' | 'hi_res' = 'fast', timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const at = path.join(dir, file.name);
  writeFileSync(at, file.bytes);
  return probeFile(at, { strategy, timeoutMs, heapMb: 1024 });
}

describe('hostile PDFs, each in a child process', () => {
  it('refuses a PDF of 100,000 pages before reading any, naming the limit', async () => {
    const r = await probe(hundredThousandPagesPdf());
    expect(r.outcome).toBe('error');
    expect(r.detail).toBe(
      'DOCUMENT_TOO_COMPLEX: hundred-thousand-pages.pdf: 100000 pages, over the limit of 10000 pages (set QUARRY_MAX_PDF_PAGES to raise it)',
    );
    expect(r.peakRssMb).toBeLessThan(MAX_RSS_MB);
  }, 150_000);

  it('reads the page of a CFF font whose charset runs off its end with a fallback font', async () => {
    const r = await probe(cffCharsetLoopPdf());
    expect(r.outcome).toBe('ok');
    expect(r.detail).toBe('1 elements');
    expect(r.peakRssMb).toBeLessThan(MAX_RSS_MB);
  }, 150_000);

  it('reads both pages of a PDF with a broken xref table, with no unhandled rejection', async () => {
    const r = await probe(brokenXrefPdf());
    expect(r.outcome).toBe('ok');
    expect(r.detail).toBe('2 elements');
    expect(r.peakRssMb).toBeLessThan(MAX_RSS_MB);
  }, 150_000);
});

// Rendered at 200 dpi for OCR, the page was 193 M pixels and the process passed 2 GB (killed after
// 240 s); read at 20 M pixels it peaked at 766-804 MB.
const GIANT_PAGE_MAX_RSS_MB = 1024;

describe('a scanned PDF page of 5000 x 5000 pt, hi_res, in a child process', () => {
  it('is rendered for OCR at a bounded pixel count: read, under 1 GB', async () => {
    const r = await probe(giantPageScanPdf(), 'hi_res', 240_000);
    expect(r.outcome, `${r.detail} ${r.stderrLine ?? ''}`).toBe('ok');
    // The 400-pt words, read by OCR.
    expect(r.detail).toBe('1 elements');
    expect(r.peakRssMb).toBeLessThan(GIANT_PAGE_MAX_RSS_MB);
  }, 360_000);
});

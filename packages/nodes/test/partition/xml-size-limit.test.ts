/**
 * The XML parts of one office document cost memory in proportion: about 15 MB per MB for a DOCX
 * parsed whole, less for XLSX sheets read as a stream; a 256 MB main part took the process past
 * 4.5 GB. `maxXmlBytes` (32 MiB)
 * refuses such a document with FILE_TOO_LARGE as soon as its parts inflate past it. Each file is
 * partitioned in a child process (see `hostile-probe.ts`): without the limit it would exhaust the
 * test runner's memory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fourMillionParagraphsDocx, fourMillionRowsXlsx } from '../support/hostile-files.js';
import { probeFile } from '../support/hostile-probe.js';

// Measured: about 190 MB at the moment of refusal (most of it Node, tsx and the partitioners).
const PEAK_RSS_BOUND_MB = 450;

describe('XML parts past maxXmlBytes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'xml-size-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const generate of [fourMillionParagraphsDocx, fourMillionRowsXlsx]) {
    const file = generate();
    it(`${file.name}: FILE_TOO_LARGE naming QUARRY_MAX_XML_BYTES, under ${PEAK_RSS_BOUND_MB} MB resident`, async () => {
      const at = path.join(dir, file.name);
      writeFileSync(at, file.bytes);
      // The heap bound is the one partitioning processes get; without the limit the child runs out of it.
      const r = await probeFile(at, { strategy: 'fast', timeoutMs: 120_000, heapMb: 1024 });
      expect(r.outcome, r.detail).toBe('error');
      expect(r.detail).toMatch(
        new RegExp(`^FILE_TOO_LARGE: ${file.name}: \\d+ bytes of XML, over the limit of 33554432 bytes of XML \\(set QUARRY_MAX_XML_BYTES to raise it\\)$`),
      );
      if (r.peakRssMb > 0) expect(r.peakRssMb).toBeLessThan(PEAK_RSS_BOUND_MB);
    }, 240_000);
  }
});

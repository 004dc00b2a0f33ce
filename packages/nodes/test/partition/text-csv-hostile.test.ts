/**
 * Text and CSV files of one giant line, each partitioned in a child process of its own by
 * `probeFile`: refused from their bytes (FILE_TOO_LARGE, QUARRY_MAX_LINE_BYTES) before the line
 * becomes a string. Before, a CSV of one 100 MB line failed with an uncoded "Invalid string length"
 * and one of 50 MB peaked at 3.4 GB. Each child must exit normally, and partitioning may add less
 * than half the file to its memory: the line as a string would add at least the whole file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeFile } from '../support/hostile-probe.js';

const LINE_MB = 100;
// Measured 2 MB (the child's whole peak, about 190 MB of modules and the file, varies with load).
const MAX_PARTITION_RSS_MB = LINE_MB / 2;
const PROBE_TIMEOUT_MS = 120_000;

const dir = mkdtempSync(path.join(tmpdir(), 'text-csv-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `unit` repeated to `mb` MB, with no line break. */
function oneLineFile(name: string, unit: string, mb: number): string {
  const u = Buffer.from(unit);
  const bytes = Buffer.allocUnsafe(mb * 2 ** 20);
  for (let at = 0; at < bytes.length; at += u.length) u.copy(bytes, at, 0, Math.min(u.length, bytes.length - at));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('files of one 100 MB line, each in a child process', () => {
  for (const [name, unit] of [
    ['one-line.csv', 'cell,'],
    ['one-line.txt', 'word '],
  ] as const) {
    it(`refuses ${name} from its bytes, naming QUARRY_MAX_LINE_BYTES`, async () => {
      const r = await probeFile(oneLineFile(name, unit, LINE_MB), { strategy: 'fast', timeoutMs: PROBE_TIMEOUT_MS, heapMb: 4096 });
      expect(r.outcome).toBe('error');
      expect(r.detail).toBe(
        `FILE_TOO_LARGE: ${name}: ${LINE_MB * 2 ** 20} bytes, over the limit of ${16 * 2 ** 20} bytes (set QUARRY_MAX_LINE_BYTES to raise it)`,
      );
      expect(r.partitionRssMb).toBeLessThan(MAX_PARTITION_RSS_MB);
    }, 200_000);
  }
});

import { limitError, partitionLimits } from '../../limits.js';

/**
 * The byte length of the first line of `bytes` longer than `max` bytes, or `undefined` when every
 * line fits. A line ends at LF or CR (CRLF counts as two ends, which only shortens lines).
 */
export function firstLineOver(bytes: Uint8Array, max: number): number | undefined {
  if (bytes.byteLength <= max) return undefined;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buf.length;
  // The next LF and CR at or after `start`, each searched again only once passed: searching both
  // from every line start would rescan a file without CRs to its end for each line.
  let lf = -1;
  let cr = -1;
  for (let start = 0; start < end; ) {
    if (lf < start) lf = buf.indexOf(0x0a, start);
    if (cr < start) cr = buf.indexOf(0x0d, start);
    if (lf < 0) lf = end;
    if (cr < 0) cr = end;
    const stop = Math.min(lf, cr);
    if (stop - start > max) return stop - start;
    start = stop + 1;
  }
  return undefined;
}

/**
 * Refuses a text-like file with a line over `QUARRY_MAX_LINE_BYTES` (`FILE_TOO_LARGE`), from its
 * bytes, before any of it is decoded: one giant line becomes one giant string, and a CSV line
 * millions of cells.
 */
export function assertLineBytes(bytes: Uint8Array, filename: string): void {
  const limits = partitionLimits();
  const over = firstLineOver(bytes, limits.maxLineBytes);
  if (over !== undefined) throw limitError('FILE_TOO_LARGE', 'maxLineBytes', filename, over, limits);
}

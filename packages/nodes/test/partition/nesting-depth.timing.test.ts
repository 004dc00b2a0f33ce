/**
 * Nesting costs linear time. Before, saxes looked each element's namespace prefix up through every
 * open element (100,000 nested content controls ran past 300 s) and htmlparser2 `unshift`ed every
 * open element onto its stack (100,000 nested `<div>`s took about 35 s). The bounds are generous:
 * both now take a few seconds.
 */
import { describe, expect, it } from 'vitest';
import { partitionFile } from '../../src/partition/partition-file.js';
import { nestedSdtDocx } from '../support/hostile-files.js';

const BOUND_MS = 30_000;

async function timed(bytes: Uint8Array, filename: string): Promise<number> {
  const start = performance.now();
  const elements = await partitionFile(bytes, { filename, strategy: 'fast' });
  expect(elements.map((e) => e.text)).toContain('Deep inside.');
  return performance.now() - start;
}

describe('nesting 100,000 levels deep', () => {
  it(`DOCX (nested w:sdt) partitions within ${BOUND_MS / 1000} s`, async () => {
    expect(await timed(nestedSdtDocx(100_000).bytes, 'nested.docx')).toBeLessThan(BOUND_MS);
  }, 120_000);

  it(`HTML (nested div) partitions within ${BOUND_MS / 1000} s`, async () => {
    const html = `<html><body>${'<div>'.repeat(100_000)}Deep inside.${'</div>'.repeat(100_000)}</body></html>`;
    expect(await timed(new TextEncoder().encode(html), 'nested.html')).toBeLessThan(BOUND_MS);
  }, 120_000);
});

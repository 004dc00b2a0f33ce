/**
 * Reading every page of a PDF is linear in its pages even when its page tree gives pdf.js no
 * shortcut: inline /Pages nodes carry no cached /Count, so unpatched pdf.js found page n by walking
 * the n pages before it (10,000 pages: 43 s of page lookups alone; 3 s with quarry's patch, which
 * resumes each walk where the last one stopped).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { partitionFile } from '../../src/index.js';
import { stopPageWorker } from '../../src/partition/formats/pdf/page-worker-host.js';
import { inlinePageTreePdf } from '../support/hostile-files.js';

afterAll(() => stopPageWorker());

// Generous: 18 s measured on a loaded two-core machine; 46 s without the patch.
const BOUND_MS = 40_000;

describe('a PDF of 10,000 pages in an inline page tree', () => {
  it('is read page by page in linear time', async () => {
    const bytes = inlinePageTreePdf(4);
    const t0 = performance.now();
    const elements = await partitionFile(bytes, { filename: 'ten-thousand-pages.pdf', strategy: 'fast', include_page_breaks: true });
    const ms = performance.now() - t0;
    // The pages are empty: one PageBreak between each two.
    expect(elements.length).toBe(9_999);
    expect(ms).toBeLessThan(BOUND_MS);
  }, 120_000);
});

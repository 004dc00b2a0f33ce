import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitError, limitWarning, partitionLimits } from '../../src/partition/limits.js';

describe('partition limits', () => {
  it('reads each limit from its variable when that is a positive integer, else the default', () => {
    const limits = partitionLimits({ QUARRY_MAX_PDF_PAGES: '50000', QUARRY_MAX_IMAGE_PIXELS: '0', QUARRY_MAX_LINE_BYTES: '12k' });
    expect(limits.maxPdfPages).toBe(50_000);
    expect(limits.maxImagePixels).toBe(DEFAULT_LIMITS.maxImagePixels);
    expect(limits.maxLineBytes).toBe(DEFAULT_LIMITS.maxLineBytes);
    expect(partitionLimits({})).toEqual(DEFAULT_LIMITS);
  });

  it('names the file, the limit and the variable that raises it', () => {
    const e = limitError('DOCUMENT_TOO_COMPLEX', 'maxPdfPages', 'big.pdf', 100_000, partitionLimits({}));
    expect(e.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(e.message).toBe('big.pdf: 100000 pages, over the limit of 10000 pages (set QUARRY_MAX_PDF_PAGES to raise it)');
    expect(e.details).toMatchObject({ filename: 'big.pdf', limit: 'QUARRY_MAX_PDF_PAGES', limit_value: 10_000, found: 100_000 });
    expect(limitWarning('maxEmbeddingDepth', 'a.eml', 'attachments', partitionLimits({}))).toBe(
      'a.eml: attachments past the limit of 8 levels left out (set QUARRY_MAX_EMBEDDING_DEPTH to raise it)',
    );
  });
});

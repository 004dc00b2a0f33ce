import { describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { renderInspection } from '../../src/index.js';
import { hugeHeaderPng, hundredThousandPagesPdf } from '../support/hostile-files.js';

const boxed = (page: number): Element => ({
  element_id: `e${page}`,
  type: 'NarrativeText',
  text: `on page ${page}`,
  metadata: {
    page_number: page,
    coordinates: {
      points: [
        [10, 10],
        [10, 20],
        [50, 20],
        [50, 10],
      ],
      system: 'PixelSpace',
      layout_width: 612,
      layout_height: 792,
    },
  },
});

describe('renderInspection limits', () => {
  it('pictures the first maxPages pages of a PDF whose page tree claims 100,000', async () => {
    const html = await renderInspection([boxed(1), boxed(30)], hundredThousandPagesPdf().bytes, { filename: 'many.pdf' });
    expect(html.match(/<section class="page"/g)).toHaveLength(20);
    expect(html).toContain('Showing the first 20 of 100000 pages; the elements of later pages are listed but not drawn.');
    expect(html.match(/<div class="box" /g)).toHaveLength(1);
    expect(html).toContain('<span class="nobox">(page not pictured)</span>');
  }, 60_000);

  it('refuses an image over the pixel limit as partitioning does (FILE_TOO_LARGE), before decoding it', async () => {
    await expect(renderInspection([boxed(1)], hugeHeaderPng().bytes, { filename: 'huge.png' })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });
});

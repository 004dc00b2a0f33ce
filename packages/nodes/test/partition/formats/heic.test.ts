import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { fixture, partitionFixture } from './fixtures.js';

describe('heic partitioner', () => {
  it("decodes the Python library unstructured's DA-1p.heic and reads it by OCR as one image page", async () => {
    const elements = await partitionFixture('unstructured-DA-1p.heic', { strategy: 'hi_res', ocr_languages: ['eng'] });
    const texts = elements.map((e) => e.text);
    expect(texts).toContain('CREATURES');
    expect(texts.join(' ')).toContain('Transcribed from a tale told by a former templar');
    for (const el of elements) expect(el.metadata).toMatchObject({ filetype: 'image/heic', page_number: 1 });
  }, 120_000);

  it('fails alone with a coded error naming the file for a cut HEIC', async () => {
    const err = await partitionFile(fixture('unstructured-DA-1p.heic').subarray(0, 3000), { filename: 'cut.heic' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect((err as Error).message).toContain('cut.heic');
  }, 60_000);
});

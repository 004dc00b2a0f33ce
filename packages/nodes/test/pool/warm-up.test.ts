import { describe, expect, it } from 'vitest';
import { partitionFile } from '../../src/partition/partition-file.js';
import { EXTENSION_MIME_TYPES } from '../../src/partition/formats/index.js';
import { warmUp, warmUpSamples } from '../../src/pool/warm-up.js';

// A warmed pool's processes partition these before their first document: each must be read by
// the format it stands for, or that format's first document pays its loading after all.
describe('the warm-up of partition processes', () => {
  it('has one sample of each common format, each read by that format into elements', async () => {
    const samples = await warmUpSamples();
    expect(samples.map((s) => s.filename.slice(s.filename.lastIndexOf('.')))).toEqual([
      '.txt',
      '.md',
      '.html',
      '.xml',
      '.csv',
      '.json',
      '.eml',
      '.pdf',
      '.docx',
      '.xlsx',
      '.pptx',
      '.png',
    ]);
    for (const { filename, bytes } of samples) {
      const elements = await partitionFile(bytes, { filename, strategy: 'auto', ocr_languages: ['eng'] });
      const extension = filename.slice(filename.lastIndexOf('.'));
      expect(elements.length, filename).toBeGreaterThan(0);
      expect(elements[0]!.metadata.filetype, filename).toBe(EXTENSION_MIME_TYPES[extension]);
      // The picture is read by OCR, which may misread a letter: one of its words is enough.
      expect(elements.map((e) => e.text).join(' '), filename).toMatch(/Annual|report|Region/);
    }
  }, 120_000);

  it('partitions every sample', async () => {
    const names = (await warmUpSamples()).map((s) => s.filename);
    expect(await warmUp(partitionFile)).toEqual(names);
  }, 120_000);
});

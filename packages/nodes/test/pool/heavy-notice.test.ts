import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { handlePartitionTask } from '../../src/pool/partition-task.js';
import { textImage } from '../support/text-image.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const corpusDocs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const hasCorpus = existsSync(corpusDocs);
if (!hasCorpus) console.warn(`skipping the scanned-PDF cases: the shared corpus is not at ${corpusDocs}`);

/** Partitions one document as a pool's worker does, counting the heavy notices it sends. */
async function notices(bytes: Uint8Array, filename: string, strategy: 'auto' | 'fast' | 'hi_res' = 'auto'): Promise<number> {
  let heavy = 0;
  const { elements } = await handlePartitionTask({ bytes, request: { filename, strategy, ocr_languages: ['eng'] } }, undefined, () => heavy++);
  expect(elements.length, filename).toBeGreaterThan(0);
  return heavy;
}

const corpus = (name: string) => new Uint8Array(readFileSync(path.join(corpusDocs, name)));

// The worker tells its pool a document will be long as soon as it knows it needs OCR, so that the
// pool's small lane does not wait for the document's CPU time to hand it off.
describe('the heavy-work notice of a partition task', () => {
  it('is sent for a page-sized image, which is OCR’d, and not for a small one or text formats', async () => {
    const page = Array.from({ length: 12 }, (_, i) => `Quarterly figures of region ${i + 1}`);
    expect(await notices(await textImage(page, 2000), 'scan.png')).toBeGreaterThan(0);
    // A logo-sized image (an e-mail's attachment, say) is OCR'd in milliseconds, a screenshot of a
    // table (1377 x 648, 0.9 M pixels) in under a second: no notice.
    expect(
      await notices(
        await textImage(
          Array.from({ length: 8 }, (_, i) => `Row ${i + 1} of the table`),
          1377,
        ),
        'table.png',
      ),
    ).toBe(0);
    expect(await notices(await textImage(['Quarterly figures'], 600), 'logo.png')).toBe(0);
    expect(await notices(new TextEncoder().encode('Quarterly figures\n\nEvery region grew.\n'), 'notes.txt')).toBe(0);
    expect(await notices(new TextEncoder().encode('<html><body><h1>Figures</h1><p>Every region grew.</p></body></html>'), 'page.html')).toBe(0);
  }, 120_000);

  it.skipIf(!hasCorpus)(
    'is sent for a scanned PDF page under auto and hi_res, not for a PDF with a text layer',
    async () => {
      expect(await notices(corpus('loremipsum-flat.pdf'), 'loremipsum-flat.pdf', 'auto')).toBeGreaterThan(0);
      expect(await notices(corpus('loremipsum-flat.pdf'), 'loremipsum-flat.pdf', 'hi_res')).toBeGreaterThan(0);
      expect(await notices(corpus('all-number-table.pdf'), 'all-number-table.pdf', 'auto')).toBe(0);
      expect(await notices(corpus('all-number-table.pdf'), 'all-number-table.pdf', 'hi_res')).toBe(0);
    },
    240_000,
  );
});

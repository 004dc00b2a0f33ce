import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@quarry/core';
import { PartitionPool } from '../../src/index.js';
import { residentMb } from '../support/resident-memory.js';
import { textImage } from '../support/text-image.js';

/** The OCR engine starts each partitioned document's log reports. */
function engineStarts(): { logger: Logger; count(): number } {
  let n = 0;
  const debug = (message: string): void => void (message === 'ocr: engine started' && n++);
  const none = (): void => undefined;
  return { logger: { debug, info: none, warn: none, error: none }, count: () => n };
}

// Where OCR engines start: a warmed pool's lane processes (a server's) start theirs during the
// warm-up, before any document needs one; every other process only when a document does.
describe('the OCR engine of partition processes', () => {
  let pool: PartitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("is started by a pool's first picture when the pool is not warmed (a one-off run)", async () => {
    pool = new PartitionPool({ size: 1 });
    await pool.partition(new TextEncoder().encode('A first document.\n'), { filename: 'first.txt' });
    const log = engineStarts();
    const elements = await pool.partition(
      await textImage(['Quarterly figures'], 600),
      { filename: 'logo.png', ocr_languages: ['eng'] },
      { logger: log.logger },
    );
    expect(elements.map((e) => e.text).join(' ')).toContain('Quarterly');
    expect(log.count()).toBe(1);
  }, 120_000);

  it('is ready in one lane process of a warmed pool, and started on demand in the other and its general process', async () => {
    pool = new PartitionPool({ size: 1, smallLaneProcesses: 2 });
    pool.warm();
    expect(pool.pids).toHaveLength(3);
    await pool.warmedUp();
    // Three pictures at once: the general process takes the first, each lane process one more;
    // one engine kept warm is enough at rest, so the second lane process starts its own.
    const log = engineStarts();
    const image = await textImage(['Quarterly figures'], 600);
    const read = await Promise.all([0, 1, 2].map((i) => pool!.partition(image, { filename: `logo-${i}.png`, ocr_languages: ['eng'] }, { logger: log.logger })));
    expect(read.map((elements) => elements.map((e) => e.text).join(' '))).toEqual(Array(3).fill(expect.stringContaining('Quarterly')));
    expect(pool.pids).toHaveLength(3);
    expect(log.count()).toBe(2);
  }, 120_000);

  it.skipIf(process.platform !== 'linux')(
    "is not kept by the lane's idle spare (small-lane.test.ts: it starts one when it joins the lane)",
    async () => {
      // One lane process and its spare (the default of a warmed pool with one lane process).
      pool = new PartitionPool({ size: 1, smallLaneProcesses: 1 });
      pool.warm();
      const [, lane, spare] = pool.pids;
      await pool.warmedUp();
      // The engine is the bulk of a warm lane process (about 100 MB); the spare holds none.
      expect(residentMb(lane!) - residentMb(spare!)).toBeGreaterThan(40);
    },
    120_000,
  );
});

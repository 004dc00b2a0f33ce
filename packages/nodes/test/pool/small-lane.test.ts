import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PartitionPool } from '../../src/index.js';
import { residentMb } from '../support/resident-memory.js';
import { textImage } from '../support/text-image.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bigPdf = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs', 'DA-619p.pdf');
const hasCorpus = existsSync(bigPdf);
if (!hasCorpus) console.warn(`skipping the small-lane tests: the shared corpus's 619-page PDF is not at ${bigPdf}`);

/** The niceness background processes get: 10 more than this process's, at most 19. */
const background = Math.min(19, getPriority() + 10);

/** Whether this process may raise a child's priority back (root, CAP_SYS_NICE or RLIMIT_NICE). */
function canRaisePriority(): boolean {
  const script = "const os = require('node:os'); const p = os.getPriority(); os.setPriority(p + 1); try { os.setPriority(p); } catch { process.exit(1); }";
  return spawnSync(process.execPath, ['-e', script]).status === 0;
}

/** CPU seconds (user + system) a process has used, from `/proc`. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(20);
}

// A server's pool (warmed, background priority) with real partition processes: the 619-page PDF
// holds the one general process while small documents come.
describe.skipIf(!hasCorpus || process.platform !== 'linux')('the small lane of a warmed partition pool', () => {
  let pool: PartitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('hands an image to OCR off the lane on its notice, before its hand-off time of work, and promotes the warm spare, which then starts an OCR engine', async () => {
    // No idle recycling: on a loaded machine the image may take longer than the idle time.
    pool = new PartitionPool({ size: 1, backgroundPriority: true, idleTimeoutMs: 0 });
    pool.warm();
    // The general process, the lane's and the lane's spare, which waits warmed at background priority.
    const [general, lane, spare] = pool.pids as [number, number, number];
    expect(pool.pids).toHaveLength(3);
    await pool.warmedUp();
    expect([getPriority(general), getPriority(lane), getPriority(spare)]).toEqual([background, getPriority(), background]);

    const holdBig = new AbortController();
    const big = pool
      .partition(new Uint8Array(readFileSync(bigPdf)), { filename: 'DA-619p.pdf', strategy: 'fast' }, { signal: holdBig.signal })
      .catch(() => 'withdrawn');
    const cpuBefore = cpuSeconds(lane);
    // Two lines on a strip over the notice's 1.5 M pixels (7000 x 220): the notice is what is tested,
    // and the handed-off OCR runs at background priority, where ten lines took minutes on a loaded machine.
    const image = pool.partition(await textImage(['Quarterly figures', 'of the northern region'], 7000), {
      filename: 'scan.png',
      strategy: 'auto',
      ocr_languages: ['eng'],
    });
    // Handed off: the spare joins the lane and a new spare starts behind it.
    await until(() => pool!.pids.length === 4);
    // The lane hands off after 2 CPU seconds of a document's work: the notice came well before.
    expect(cpuSeconds(lane) - cpuBefore).toBeLessThan(2);
    const next = pool.pids.find((p) => ![general, lane, spare].includes(p))!;
    expect(getPriority(lane)).toBe(background);
    if (canRaisePriority()) expect(getPriority(spare)).toBe(getPriority());
    await until(() => getPriority(next) === background);

    // Small work goes on in the promoted spare while the image is read.
    const text = await pool.partition(new TextEncoder().encode('Quarterly figures\n\nEvery region grew.\n'), { filename: 'notes.txt' });
    expect(text.map((e) => e.text)).toEqual(['Quarterly figures', 'Every region grew.']);
    // The big PDF has served its purpose (the general process was busy): withdrawn now, it leaves
    // the cores to the image's OCR, which on a loaded machine took minutes beside it.
    holdBig.abort();
    expect(await big).toBe('withdrawn');
    expect((await image).map((e) => e.text).join(' ')).toContain('Quarterly');
    // The handed-off process ends after its document; the promoted spare stays the lane's.
    await until(() => !pool!.pids.includes(lane));
    // (The general process may have been replaced if it did not stop within its grace period.)
    expect(pool.pids).toHaveLength(3);
    expect(pool.pids).toEqual(expect.arrayContaining([spare, next]));
    // Once in the lane, the promoted spare started an OCR engine (about 100 MB resident), which
    // the new spare, idle, does not keep.
    await pool.warmedUp();
    expect(residentMb(spare) - residentMb(next)).toBeGreaterThan(40);
  }, 180_000);
});

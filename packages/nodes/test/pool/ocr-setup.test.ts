import { ProcessPool } from '@quarry/core/process-pool';
import { afterEach, describe, expect, it } from 'vitest';
import { textImage } from '../support/text-image.js';

type Task = { png: Uint8Array };
type Result = { pid: number; text: string; spans: boolean[] };

// A real pool process running the OCR module: starting the engine is reported to the pool as the
// process's setup (which the small lane's hand-off does not count), reading an image is not.
describe('the OCR engine start in a pool process', () => {
  let pool: ProcessPool<Task, Result> | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("is reported to the pool as the process's setup, once, and reading with the started engine is not", async () => {
    pool = new ProcessPool<Task, Result>({ workerUrl: new URL('../support/ocr-setup-worker.ts', import.meta.url), size: 1 });
    const first = await pool.run({ png: await textImage(['Quarterly figures']) });
    expect(first).toMatchObject({ text: 'Quarterly figures', spans: [true, false] });
    const second = await pool.run({ png: await textImage(['Northern region']) });
    expect(second).toEqual({ pid: first.pid, text: 'Northern region', spans: [] });
  }, 120_000);
});

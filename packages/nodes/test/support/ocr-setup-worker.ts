import type { WorkerTaskHandler } from '@quarry/core/process-pool';
import { ocrImage } from '../../src/partition/ocr.js';

// The setup spans this process reports to its pool, seen by wrapping the reporter that the pool's
// process entry installed (it still reports each one).
const REPORTER = Symbol.for('quarry.process-pool.setup');
const globals = globalThis as Record<symbol, unknown>;
const report = globals[REPORTER] as ((message: { setup: boolean }) => void) | undefined;
const spans: boolean[] = [];
globals[REPORTER] = (message: { setup: boolean }) => {
  spans.push(message.setup);
  report?.(message);
};

/**
 * A pool worker for the OCR setup test: OCRs `png` (English) and answers the text, its process id
 * and the setup spans (start true, end false) its process reported to the pool meanwhile.
 */
const ocrTask: WorkerTaskHandler<{ png: Uint8Array }, { pid: number; text: string; spans: boolean[] }> = async ({ png }, signal) => {
  spans.length = 0;
  const { text } = await ocrImage(png, { languages: ['eng'], signal });
  return { pid: process.pid, text: text.trim(), spans: [...spans] };
};

export default ocrTask;

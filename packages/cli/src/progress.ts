import cliProgress from 'cli-progress';
import type { Job } from '@quarry/core';

/**
 * Draws a progress bar for a job on stderr: documents done out of the source's count, with failed
 * and skipped counts. Without a TTY it prints a plain line every few seconds instead of redrawing.
 */
export function attachProgress(job: Job, stream: NodeJS.WriteStream = process.stderr): void {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'quarry {bar} {value}/{total} docs | {failed} failed | {skipped} skipped | {eta_formatted} left | {file}',
      hideCursor: true,
      noTTYOutput: !stream.isTTY,
      notTTYSchedule: 5000,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let started = false;
  const tick = (file: string): void => {
    done++;
    bar.update(done, { failed, skipped, file });
  };
  job.events$.subscribe((e) => {
    switch (e.type) {
      case 'job_started':
        started = true;
        bar.start(e.total ?? 0, 0, { failed, skipped, file: '' });
        break;
      case 'document_written':
      case 'document_stopped':
        tick(e.filename);
        break;
      case 'document_failed':
        failed++;
        tick(e.filename);
        break;
      case 'document_skipped':
        skipped++;
        tick(e.filename);
        break;
      case 'job_finished':
        if (started) {
          bar.update(done, { failed, skipped, file: '' });
          bar.stop();
        }
        break;
      default:
        break;
    }
  });
}

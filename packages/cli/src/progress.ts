import { clearLine, cursorTo } from 'node:readline';
import cliProgress from 'cli-progress';
import type { Job } from '@quarry/core';

/** A progress bar over documents, and a way to print lines above it without tearing it. */
export interface DocumentProgress {
  /** Counts one document done: written, failed or skipped. */
  tick(file: string, outcome?: 'done' | 'failed' | 'skipped'): void;
  /** Prints a line (ending with a newline) above the bar. */
  log(line: string): void;
  stop(): void;
}

/**
 * Draws a progress bar on stderr: documents done out of `total`, with failed and skipped counts.
 * Without a TTY it prints a plain line every few seconds instead of redrawing. Lines printed with
 * `log` go above the bar, so warnings read the same with or without it.
 */
export function documentProgress(total: number, stream: NodeJS.WriteStream = process.stderr): DocumentProgress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'quarry {bar} {value}/{total} docs | {failed} failed | {skipped} skipped | {eta_formatted} left | {file}',
      hideCursor: true,
      noTTYOutput: !stream.isTTY,
      notTTYSchedule: 5000,
      etaBuffer: 50,
      // Redrawn after every line logged above it, even when its text did not change.
      forceRedraw: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let running = true;
  bar.start(total, 0, { failed, skipped, file: '' });
  return {
    tick(file, outcome = 'done') {
      done++;
      if (outcome === 'failed') failed++;
      if (outcome === 'skipped') skipped++;
      bar.update(done, { failed, skipped, file });
    },
    log(line) {
      if (!running || !stream.isTTY) {
        stream.write(line);
        return;
      }
      cursorTo(stream, 0);
      clearLine(stream, 0);
      stream.write(line);
      bar.render();
    },
    stop() {
      if (!running) return;
      running = false;
      bar.update(done, { failed, skipped, file: '' });
      bar.stop();
    },
  };
}

/** Draws {@link documentProgress} for a job, from its events; returns it, so its `log` can print warnings. */
export function attachProgress(job: Job, stream: NodeJS.WriteStream = process.stderr): { log(line: string): void } {
  let progress: DocumentProgress | undefined;
  job.events$.subscribe((e) => {
    switch (e.type) {
      case 'job_started':
        progress = documentProgress(e.total ?? 0, stream);
        break;
      case 'document_written':
      case 'document_stopped':
        progress?.tick(e.filename);
        break;
      case 'document_failed':
        progress?.tick(e.filename, 'failed');
        break;
      case 'document_skipped':
        progress?.tick(e.filename, 'skipped');
        break;
      case 'job_finished':
        progress?.stop();
        break;
      default:
        break;
    }
  });
  return { log: (line) => (progress ? progress.log(line) : stream.write(line)) };
}

import type { Logger } from '@quarry/core';

/** Where the logger writes a line (a progress bar passes its own, to keep the bar below the lines). */
export type LineWriter = (line: string) => void;

const toStderr: LineWriter = (line) => void process.stderr.write(line);

/**
 * The one way every command prints warnings and errors: one readable line each on stderr,
 * `quarry: warning: <document>: <message>` and `quarry: <document>: <CODE>: <message>`, the
 * document named by the file the command was given or by the record and node the job reports.
 * `quiet` drops warnings (errors still print); debug and info stay silent.
 *
 * @example
 * ```ts
 * cliLogger({ file: 'scan.png' }).warn('no OCR data is installed for kor'); // quarry: warning: scan.png: no OCR data is installed for kor
 * ```
 */
export function cliLogger(options: { quiet?: boolean; file?: string; write?: LineWriter } = {}): Logger {
  const write = options.write ?? toStderr;
  const where = (fields: Record<string, unknown> | undefined): string => {
    if (options.file !== undefined) return options.file;
    const record = typeof fields?.record_id === 'string' ? fields.record_id : 'job';
    return typeof fields?.node === 'string' ? `${record} at ${fields.node}` : record;
  };
  return {
    debug() {},
    info() {},
    warn(message, fields) {
      if (options.quiet) return;
      // A failed document, as the job reports it: its code and message, the way an error reads.
      if (typeof fields?.code === 'string' && typeof fields.message === 'string') write(`quarry: ${where(fields)}: ${fields.code}: ${fields.message}\n`);
      else write(`quarry: warning: ${where(fields)}: ${message}\n`);
    },
    error(message, fields) {
      const code = typeof fields?.code === 'string' ? `${fields.code}: ` : '';
      write(`quarry: ${where(fields)}: ${code}${typeof fields?.message === 'string' ? fields.message : message}\n`);
    },
  };
}

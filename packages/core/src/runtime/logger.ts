import type { Logger } from '../plugin/types.js';

/** A logger that drops everything (the default: a library should not print). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A logger writing one JSON line per record to stderr, at `warn` and above unless `verbose`. */
export function consoleLogger(options: { verbose?: boolean } = {}): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>): void => {
    process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
  };
  return {
    debug: (m, f) => options.verbose && write('debug', m, f),
    info: (m, f) => options.verbose && write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

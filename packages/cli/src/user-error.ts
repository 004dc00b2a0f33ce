import { isQuarryError } from '@quarry/core/errors';

/** An error the user can fix; printed as one line without a stack. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** Prints an error as one clear line and returns the exit code to use. */
export function reportError(e: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  if (e instanceof UserError) {
    stderr.write(`quarry: ${e.message}\n`);
    return e.exitCode;
  }
  if (isQuarryError(e)) {
    stderr.write(`quarry: ${e.code}: ${e.message}\n`);
    return 1;
  }
  const err = e as { code?: string; message?: string };
  if (err && typeof err.code === 'string' && err.code.startsWith('commander.')) return 2;
  stderr.write(`quarry: internal error: ${err?.message ?? String(e)}\n`);
  if (process.env.QUARRY_DEBUG) stderr.write(`${(e as Error).stack}\n`);
  return 70;
}

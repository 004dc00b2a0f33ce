import { readFile } from 'node:fs/promises';
import { UserError } from './user-error.js';

/** Reads and parses a JSON file, or stdin for `-`; a missing or malformed file is a {@link UserError}. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `file not found: ${path}` : `cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UserError(`${path === '-' ? 'stdin' : path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** Reads all of stdin as UTF-8. */
export async function readStdin(): Promise<string> {
  return (await readStdinBytes()).toString('utf8');
}

/** Reads all of stdin as bytes. */
export async function readStdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

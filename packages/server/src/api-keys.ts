import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { QuarryError } from '@quarry/core';

const WORKSPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * The API keys the service accepts, each bound to exactly one workspace. Only SHA-256 digests are
 * kept, and a lookup compares against every digest in constant time.
 */
export class ApiKeyRing {
  private readonly entries: Array<{ digest: Buffer; workspace: string }>;

  constructor(pairs: Iterable<readonly [key: string, workspace: string]>) {
    this.entries = [...pairs].map(([key, workspace]) => ({ digest: digest(key), workspace }));
  }

  /** The workspace of a key, or undefined for an unknown key. */
  workspaceOf(key: string): string | undefined {
    const d = digest(key);
    let found: string | undefined;
    for (const e of this.entries) if (timingSafeEqual(e.digest, d)) found = e.workspace;
    return found;
  }

  /** Number of keys. */
  get size(): number {
    return this.entries.length;
  }

  /** The workspaces that have keys, sorted. */
  workspaces(): string[] {
    return [...new Set(this.entries.map((e) => e.workspace))].sort();
  }
}

/**
 * Parses `key=workspace` entries separated by commas or new lines (`#` starts a comment), the
 * format of `QUARRY_API_KEYS` and of a keys file. A key may appear once; errors name the entry by
 * position and never repeat the key.
 */
export function parseApiKeys(text: string, source: string): Array<[string, string]> {
  const out = new Map<string, string>();
  const entries = text
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(','))
    .map((e) => e.trim())
    .filter(Boolean);
  entries.forEach((entry, i) => {
    const eq = entry.lastIndexOf('=');
    const key = eq > 0 ? entry.slice(0, eq).trim() : '';
    const workspace = eq > 0 ? entry.slice(eq + 1).trim() : '';
    if (!key || !workspace) throw new QuarryError('INVALID_ARGUMENT', `${source}: entry ${i + 1} must be key=workspace`);
    if (!WORKSPACE.test(workspace))
      throw new QuarryError(
        'INVALID_ARGUMENT',
        `${source}: entry ${i + 1}: workspace ${JSON.stringify(workspace)} must be 1-64 letters, digits, ".", "_" or "-"`,
      );
    if (key.length < 8) throw new QuarryError('INVALID_ARGUMENT', `${source}: entry ${i + 1}: a key must have at least 8 characters`);
    if (out.has(key)) throw new QuarryError('INVALID_ARGUMENT', `${source}: entry ${i + 1} repeats a key; each key belongs to exactly one workspace`);
    out.set(key, workspace);
  });
  return [...out];
}

/** Where the keys came from. */
export interface LoadedKeys {
  keys: ApiKeyRing;
  /** `file <path>`, `QUARRY_API_KEYS`, or `generated <path>`. */
  source: string;
}

/** Options of {@link loadApiKeys}. */
export interface LoadApiKeysOptions {
  /** A keys file (`--keys-file`); wins over the environment. */
  keysFile?: string;
  /** The environment (default `process.env`); `QUARRY_API_KEYS` is read from it. */
  env?: NodeJS.ProcessEnv;
  /** Where `api-keys` is kept when neither of the above is given. */
  dataDir: string;
}

/**
 * Loads the API keys: from the keys file, else `QUARRY_API_KEYS`, else `<dataDir>/api-keys`,
 * which is created (mode 0600) with one random key for workspace `default` when missing. The key
 * itself is never printed: read it from that file.
 */
export async function loadApiKeys(options: LoadApiKeysOptions): Promise<LoadedKeys> {
  if (options.keysFile) {
    const pairs = parseApiKeys(await readFile(options.keysFile, 'utf8'), `keys file ${options.keysFile}`);
    if (!pairs.length) throw new QuarryError('INVALID_ARGUMENT', `keys file ${options.keysFile} has no key=workspace entry`);
    return { keys: new ApiKeyRing(pairs), source: `file ${options.keysFile}` };
  }
  const env = (options.env ?? process.env).QUARRY_API_KEYS;
  if (env?.trim()) return { keys: new ApiKeyRing(parseApiKeys(env, 'QUARRY_API_KEYS')), source: 'QUARRY_API_KEYS' };
  const file = path.join(options.dataDir, 'api-keys');
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== undefined) {
    const pairs = parseApiKeys(text, `keys file ${file}`);
    if (pairs.length) return { keys: new ApiKeyRing(pairs), source: `file ${file}` };
  }
  await mkdir(options.dataDir, { recursive: true });
  const key = randomBytes(24).toString('base64url');
  await writeFile(file, `# quarry API keys: key=workspace, one per line\n${key}=default\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { keys: new ApiKeyRing([[key, 'default']]), source: `generated ${file}` };
}

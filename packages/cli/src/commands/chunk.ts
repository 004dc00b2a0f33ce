import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { elementsFromJSON, elementToJSON, errorMessage, isQuarryError, parseSettings, QuarryError, type Element, type Plugin } from '@quarry/core';
import { chunk, chunkerDefinition, chunkerNames, type ChunkerNodeSettings } from '@quarry/nodes';
import { loadPlugins } from '../plugins.js';
import { readJsonFile } from '../read-json.js';
import { UserError } from '../user-error.js';

/** Options of `quarry chunk`. */
export interface ChunkCommandOptions {
  /**
   * A registered chunker's subtype (`chunk_by_title`) or alias (the names of the Python library
   * `unstructured` and the hosted API: `basic`, `by_title`, `by_page`, `by_similarity`).
   */
  subtype?: string;
  /** JSON object of chunker node settings (the Unstructured workflow API's names or the aliases in {@link CHUNK_SETTING_ALIASES}). */
  settings?: string;
  /** Read one request per line and write one result per line. */
  jsonl?: boolean;
  /** Modules whose default export is a plugin (or a list of them): their chunkers can be named too. */
  plugin?: string[];
}

/** Where the command reads and writes; the process streams by default. */
export interface ChunkCommandIo {
  stdin: Readable;
  stdout: Writable;
}

/**
 * Reference-library option names accepted in `--settings`, and the node setting each one sets
 * (as the Python library unstructured names them): `combine_under_n_chars` is the legacy API form field; the `chunk_*` names are
 * the ingest `ChunkerConfig` fields. The library's own keyword names (`max_characters`,
 * `new_after_n_chars`, `overlap`, `overlap_all`, `combine_text_under_n_chars`,
 * `multipage_sections`, `include_orig_elements`) already are node setting names.
 */
export const CHUNK_SETTING_ALIASES: Readonly<Record<string, keyof ChunkerNodeSettings>> = {
  combine_under_n_chars: 'combine_text_under_n_chars',
  chunk_max_characters: 'max_characters',
  chunk_new_after_n_chars: 'new_after_n_chars',
  chunk_overlap: 'overlap',
  chunk_overlap_all: 'overlap_all',
  chunk_combine_text_under_n_chars: 'combine_text_under_n_chars',
  chunk_multipage_sections: 'multipage_sections',
  chunk_include_orig_elements: 'include_orig_elements',
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Renames `unstructured` option names to node setting names; both forms of one setting must agree.
function canonicalSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    const name = Object.hasOwn(CHUNK_SETTING_ALIASES, key) ? (CHUNK_SETTING_ALIASES[key] as string) : key;
    if (Object.hasOwn(out, name) && JSON.stringify(out[name]) !== JSON.stringify(value)) {
      throw new QuarryError('SETTINGS_INVALID', `settings give ${name} twice with different values (${key} is another name for ${name})`);
    }
    out[name] = value;
  }
  return out;
}

/**
 * Chunks one request: `subtype` (a registered chunker's subtype or alias), node `settings` (an
 * object, aliases allowed) and `elements` (an element JSON array), with the `chunk` helper of
 * @quarry/nodes, so the command and the library take the same names and settings.
 *
 * @throws QuarryError `INVALID_ARGUMENT` (no subtype), `SETTINGS_INVALID` (an unknown chunker,
 *   listing the valid ones; settings), `CHUNKING_OPTIONS_INVALID`, `ELEMENT_INVALID` (elements).
 */
export async function chunkRequest(subtype: unknown, settings: unknown, elements: unknown, plugins: readonly Plugin[] = []): Promise<Element[]> {
  if (typeof subtype !== 'string' || subtype === '') {
    throw new QuarryError('INVALID_ARGUMENT', `a chunker subtype is required: ${await chunkerList(plugins)}`);
  }
  const definition = await chunkerDefinition(subtype, plugins);
  if (settings !== undefined && settings !== null && !isRecord(settings)) {
    throw new QuarryError('SETTINGS_INVALID', `settings must be a JSON object, got ${Array.isArray(settings) ? 'an array' : typeof settings}`);
  }
  const canonical = canonicalSettings(settings ?? {});
  // Checked here too, for the command's wording of each problem.
  const parsed = parseSettings(definition.settings, canonical);
  if (!parsed.ok) {
    const problems = parsed.problems.map((p) => (p.path ? `${p.path.slice(1)}: ${p.message}` : p.message)).join('; ');
    throw new QuarryError('SETTINGS_INVALID', `invalid ${definition.subtype} settings: ${problems}`, { details: { problems: parsed.problems } });
  }
  const input = elementsFromJSON(elements, { source: 'elements' });
  return chunk(input, definition.subtype, canonical, { plugins });
}

async function chunkerList(plugins: readonly Plugin[]): Promise<string> {
  return `one of ${(await chunkerNames(plugins)).join(', ')}`;
}

// Settings given with --settings: the defaults of every request (JSONL lines override them).
function parseSettingsOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new UserError(`--settings is not valid JSON: ${errorMessage(e)}`);
  }
  if (!isRecord(value)) throw new UserError(`--settings must be a JSON object, got ${JSON.stringify(value)}`);
  return value;
}

// One JSONL request's output line, and whether it succeeded.
async function lineResult(
  line: string,
  defaults: { subtype?: string; settings: Record<string, unknown> },
  plugins: readonly Plugin[],
): Promise<{ line: string; ok: boolean }> {
  try {
    let request: unknown;
    try {
      request = JSON.parse(line) as unknown;
    } catch (e) {
      throw new QuarryError('INVALID_ARGUMENT', `request is not valid JSON: ${errorMessage(e)}`);
    }
    if (!isRecord(request)) throw new QuarryError('INVALID_ARGUMENT', 'request must be a JSON object {"subtype", "settings", "elements"}');
    if (!Array.isArray(request.elements)) throw new QuarryError('INVALID_ARGUMENT', 'request needs "elements": an element array');
    const settings = request.settings === undefined || request.settings === null ? {} : request.settings;
    const merged = isRecord(settings) ? { ...defaults.settings, ...settings } : settings;
    const chunks = await chunkRequest(request.subtype ?? defaults.subtype, merged, request.elements, plugins);
    return { line: JSON.stringify({ chunks: chunks.map(elementToJSON) }), ok: true };
  } catch (e) {
    // Anything else is a chunker failure, reported like a node that threw.
    const error = isQuarryError(e) ? { code: e.code, message: e.message } : { code: 'NODE_FAILED', message: errorMessage(e) };
    return { line: JSON.stringify({ error }), ok: false };
  }
}

async function runJsonl(file: string | undefined, opts: ChunkCommandOptions, io: ChunkCommandIo, plugins: readonly Plugin[]): Promise<number> {
  const defaults = { subtype: opts.subtype, settings: parseSettingsOption(opts.settings) };
  const input = file === undefined || file === '-' ? io.stdin : createReadStream(file, 'utf8');
  const opened = new Promise<void>((resolve, reject) => {
    if (input === io.stdin) resolve();
    input.once('open', () => resolve());
    input.once('error', reject);
  });
  try {
    await opened;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `file not found: ${file}` : `cannot read ${file}: ${errorMessage(e)}`);
  }
  let failed = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const result = await lineResult(line, defaults, plugins);
    if (!result.ok) failed++;
    if (!io.stdout.write(`${result.line}\n`)) await new Promise((resolve) => io.stdout.once('drain', resolve));
  }
  return failed > 0 ? 1 : 0;
}

async function readElements(file: string | undefined, io: ChunkCommandIo): Promise<unknown> {
  if (file !== undefined && file !== '-') return readJsonFile(file);
  const text = await readAll(io.stdin);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UserError(`stdin is not valid JSON: ${errorMessage(e)}`);
  }
}

async function readAll(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

/**
 * {@link chunkCommand} with its streams given; returns the exit code (0 ok; with `--jsonl`, 1 when
 * some request failed). Outside `--jsonl` a bad input throws {@link UserError} (exit 2).
 */
export async function runChunkCommand(file: string | undefined, opts: ChunkCommandOptions, io: ChunkCommandIo): Promise<number> {
  const plugins = await loadPlugins(opts.plugin ?? []);
  if (opts.jsonl) return runJsonl(file, opts, io, plugins);
  const settings = parseSettingsOption(opts.settings);
  if (opts.subtype === undefined) throw new UserError(`--subtype is required: ${await chunkerList(plugins)}`);
  // Subtype and settings are checked before the input is read, so a typo fails fast.
  try {
    await chunkRequest(opts.subtype, settings, [], plugins);
  } catch (e) {
    throw new UserError(isQuarryError(e) ? e.message : errorMessage(e));
  }
  const elements = await readElements(file, io);
  if (!Array.isArray(elements)) throw new UserError(`${file === undefined || file === '-' ? 'stdin' : file} must hold a JSON array of elements`);
  let chunks: Element[];
  try {
    chunks = await chunkRequest(opts.subtype, settings, elements, plugins);
  } catch (e) {
    if (isQuarryError(e) && (e.code === 'ELEMENT_INVALID' || e.code === 'CHUNKING_OPTIONS_INVALID')) throw new UserError(e.message);
    throw e;
  }
  io.stdout.write(`${JSON.stringify(chunks.map(elementToJSON), null, 2)}\n`);
  return 0;
}

/**
 * `quarry chunk [FILE] --subtype SUBTYPE [--settings JSON] [--jsonl] [--plugin MODULE]`: chunks an
 * element array (FILE, or stdin when FILE is `-` or absent) and prints the chunk array. `--plugin`
 * registers a plugin module's chunkers beside the built-in ones.
 *
 * With `--jsonl` every input line is a request `{"subtype", "settings", "elements"}` (`--subtype`
 * and `--settings` give defaults; a line's settings override them key by key) and every request
 * gets one output line, `{"chunks": [...]}` or `{"error": {"code", "message"}}`; a bad line does
 * not stop the others, and the exit code is 1 when any failed.
 */
export async function chunkCommand(file: string | undefined, opts: ChunkCommandOptions): Promise<void> {
  process.exitCode = await runChunkCommand(file, opts, { stdin: process.stdin, stdout: process.stdout });
}

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  isQuarryError,
  parseSettings,
  type QuarryError,
  type DestinationConnector,
  type DestinationDefinition,
  type Logger,
  type SourceConnector,
  type SourceDefinition,
  type SourceDocument,
} from '@quarry/core';

/** One captured log call. */
export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps every call, for assertions on warnings. */
export function captureLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at = (level: LogRecord['level']) => (message: string, fields?: Record<string, unknown>) => {
    records.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, records };
}

/** A fresh directory under the OS temp dir; remove it with {@link removeDir}. */
export function makeTempDir(prefix = 'quarry-connectors-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Removes a directory tree, ignoring one that is already gone. */
export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Validates `config` like the engine does (defaults applied) and throws on problems. */
export function parseConfig<C>(def: { type: string; config: SourceDefinition<C>['config'] }, config: unknown): C {
  const r = parseSettings(def.config, config);
  if (!r.ok) throw new Error(`invalid ${def.type} config: ${JSON.stringify(r.problems)}`);
  return r.value;
}

/** Parses the config and creates a source, as the engine would. */
export async function createSource<C>(def: SourceDefinition<C>, config: unknown, logger: Logger = captureLogger().logger): Promise<SourceConnector> {
  return def.create(parseConfig(def, config), { logger, signal: new AbortController().signal });
}

/** Parses the config and creates a destination, as the engine would. */
export async function createDestination<C>(
  def: DestinationDefinition<C>,
  config: unknown,
  logger: Logger = captureLogger().logger,
): Promise<DestinationConnector> {
  return def.create(parseConfig(def, config), { logger, signal: new AbortController().signal });
}

/** Drains a source listing. */
export async function listAll(source: SourceConnector, signal: AbortSignal = new AbortController().signal): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for await (const d of source.list(signal)) docs.push(d);
  return docs;
}

/** Writes files (`'sub/name.txt': content`) under `root`, creating directories. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

/** Awaits a promise that must reject with a QuarryError, and returns that error. */
export async function failureOf(p: Promise<unknown>): Promise<QuarryError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isQuarryError(e)) throw new Error(`expected a QuarryError, got ${String(e)}`);
  return e;
}

import path from 'node:path';
import { createServer, loadApiKeys } from '@quarry/server';
import { partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { stopOnSignals } from '../stop-on-signals.js';
import { UserError } from '../user-error.js';

/** Options of `quarry serve`. */
export interface ServeCommandOptions extends PartitionProcessFlags {
  /** Port to listen on (default 8080; 0 picks a free one). */
  port?: number | string;
  /** Interface to bind (default 127.0.0.1; use 0.0.0.0 to accept remote clients). */
  host?: string;
  /** Where `quarry.db`, job files and local connector directories live (default `$QUARRY_DATA_DIR` or `./quarry-data`). */
  dataDir?: string;
  /** A file of `key=workspace` lines; else `QUARRY_API_KEYS`, else `<data-dir>/api-keys` (generated when missing). */
  keysFile?: string;
  /** Log level of the JSON request log on stdout (default info). */
  logLevel?: string;
}

/** A running `quarry serve`. */
export interface ServeHandle {
  /** Base URL of the workflow API, e.g. `http://127.0.0.1:8080/api/v1`. */
  url: string;
  /** Resolves once the server has stopped (SIGINT, SIGTERM or {@link ServeHandle.close}). */
  closed: Promise<void>;
  /** Stops the server: running jobs end STOPPED, the database is closed. */
  close(): Promise<void>;
}

/**
 * `quarry serve [--port N] [--host H] [--data-dir DIR] [--keys-file F]`: starts the REST service
 * and keeps it running until SIGINT or SIGTERM. The banner goes to stderr; stdout carries the JSON
 * request log. API keys are never printed.
 */
export async function serveCommand(opts: ServeCommandOptions = {}): Promise<ServeHandle> {
  const dataDir = path.resolve(opts.dataDir ?? process.env.QUARRY_DATA_DIR ?? 'quarry-data');
  const port = opts.port === undefined ? 8080 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port must be an integer from 0 to 65535, got ${String(opts.port)}`);
  const { keys, source } = await loadApiKeys({ dataDir, ...(opts.keysFile ? { keysFile: opts.keysFile } : {}) });
  const server = await createServer({ dataDir, apiKeys: keys, logger: { level: opts.logLevel ?? 'info' }, partitionPool: { ...partitionPoolOptions(opts), warm: true } });
  let url: string;
  try {
    url = await server.listen({ port, host: opts.host ?? '127.0.0.1' });
  } catch (e) {
    await server.close();
    throw e;
  }
  const { closed, close } = stopOnSignals(async () => {
    await server.close();
    process.stderr.write('quarry serve: stopped\n');
  });
  process.stderr.write(`quarry serve: listening on ${url} (workspaces: ${keys.workspaces().join(', ')}; API keys from ${source}; data in ${dataDir})\n`);
  return { url, closed, close };
}

import type { Command } from 'commander';
import type { ServerOptions } from '@quarry/server';
import { positiveInt } from './option-parsers.js';

/** The load and timeout flags of `quarry serve`. */
export interface ServeLimitFlags {
  /** Size limit of one uploaded file, in MiB (default 10). */
  maxUploadMb?: number;
  /** Legacy endpoint requests queued or running before new ones get 503 (default 64). */
  maxQueuedDocuments?: number;
  /** Their bodies' MiB before new ones get 503 (default 256). */
  maxQueuedMb?: number;
  /** The `Retry-After` of a 503, in seconds (default 5). */
  retryAfter?: number;
  /** Upload bodies over 256 KiB read at once (default 4). */
  bodyReads?: number;
  /** Seconds for a request's headers to arrive (default 30). */
  headersTimeout?: number;
  /** Seconds a request body may go without a byte (default 30). */
  bodyTimeout?: number;
  /** Seconds for a whole request to arrive (default 300). */
  requestTimeout?: number;
}

/** Adds the load and timeout flags to `quarry serve`. */
export function serveLimitOptions(command: Command): Command {
  return command
    .option('--max-upload-mb <n>', 'size limit of one uploaded file in MiB; a larger one gets 413 INPUT_TOO_LARGE (default 10)', positiveInt)
    .option('--max-queued-documents <n>', 'legacy endpoint requests queued or partitioning; past it 503 SERVER_BUSY with Retry-After (default 64)', positiveInt)
    .option('--max-queued-mb <n>', "MiB of those requests' bodies; past it 503 SERVER_BUSY (default 256)", positiveInt)
    .option('--retry-after <seconds>', 'Retry-After of a 503 (default 5)', positiveInt)
    .option('--body-reads <n>', 'upload bodies over 256 KiB read at once; the others wait their turn unread (default 4)', positiveInt)
    .option('--headers-timeout <seconds>', 'request headers must arrive within this, else 408 REQUEST_TIMEOUT (default 30)', positiveInt)
    .option('--body-timeout <seconds>', 'a request body that sends no byte for this long gets 408 REQUEST_TIMEOUT (default 30)', positiveInt)
    .option('--request-timeout <seconds>', 'a whole request must arrive within this, else 408 REQUEST_TIMEOUT (default 300)', positiveInt);
}

const MIB = 1024 * 1024;
const ms = (seconds: number | undefined): number | undefined => (seconds === undefined ? undefined : seconds * 1000);

/** The server options of those flags (unset flags keep the server's defaults). */
export function serverLimits(flags: ServeLimitFlags): Pick<ServerOptions, 'admission' | 'timeouts' | 'service'> {
  const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return {
    admission: defined({
      maxQueuedDocuments: flags.maxQueuedDocuments,
      maxQueuedBytes: flags.maxQueuedMb === undefined ? undefined : flags.maxQueuedMb * MIB,
      retryAfterSeconds: flags.retryAfter,
      bodyReadsAtOnce: flags.bodyReads,
    }),
    timeouts: defined({ headersTimeoutMs: ms(flags.headersTimeout), bodyTimeoutMs: ms(flags.bodyTimeout), requestTimeoutMs: ms(flags.requestTimeout) }),
    ...(flags.maxUploadMb === undefined ? {} : { service: { inputLimits: { maxFileBytes: flags.maxUploadMb * MIB } } }),
  };
}

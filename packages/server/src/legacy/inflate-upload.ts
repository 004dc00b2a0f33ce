import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { errorMessage, quarryError } from '@quarry/core';

// Raised by the counting stream to stop the pipeline as soon as the limit is passed.
class PastLimit extends Error {}

/**
 * Inflates a gzip upload (`report.pdf.gz`) from its staging file into `target`, beside it. zlib
 * works as a stream on the thread pool and the output goes to disk, so the event loop stays free
 * and the document never sits whole in memory; the inflation stops as soon as the output passes
 * `maxBytes`, the size limit of an uploaded file: a compressed bomb costs at most that much.
 *
 * Throws `INPUT_TOO_LARGE` past the limit and `FILE_UNREADABLE` for bytes that are not gzip (or
 * a truncated stream); anything else (the staging file gone, a full disk) is rethrown as it is.
 */
export async function inflateUpload(filePath: string, target: string, filename: string, maxBytes: number): Promise<void> {
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new PastLimit());
      done(null, chunk);
    },
  });
  try {
    await pipeline(createReadStream(filePath), createGunzip(), limit, createWriteStream(target));
  } catch (e) {
    if (e instanceof PastLimit) {
      throw quarryError('INPUT_TOO_LARGE', `File ${filename} inflates to more than ${maxBytes} bytes, the size limit of an uploaded file.`, {
        details: { filename, limit_bytes: maxBytes },
      });
    }
    // zlib's errors carry codes Z_DATA_ERROR, Z_BUF_ERROR (truncated), ...
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) {
      throw quarryError('FILE_UNREADABLE', `File ${filename} is not valid gzip: ${errorMessage(e)}`, {
        cause: e,
        details: { filename, filetype: 'application/gzip' },
      });
    }
    throw e;
  }
}

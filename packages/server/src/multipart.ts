import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { quarryError } from '@quarry/core';
import { diskWriteError } from './disk-errors.js';
import { multipartBoundary, PartHeaderCheck } from './multipart-check.js';
import { type BodyReadTurns, connectionClosed } from './body-reads.js';
import { BodyStallWatch } from './request-timeouts.js';

/** An uploaded file, written to a staging directory as it streamed in. */
export interface UploadedFile {
  /** The form field it came in (`input_files`, `files`). */
  field: string;
  filename: string;
  /** The MIME type the client declared. */
  mimetype: string;
  /** Where it was written. */
  path: string;
}

/** A multipart body: its text fields (repeatable) and its files, with a cleanup of the staging directory. */
export interface MultipartBody {
  fields: Map<string, string[]>;
  files: UploadedFile[];
  /** Removes whatever is left in the staging directory (files the service did not take over). */
  cleanup(): Promise<void>;
}

/** The limits of a multipart body (those registered with @fastify/multipart, named in the 413). */
export interface MultipartLimits {
  maxFiles: number;
  maxFileBytes: number;
  /** A body that receives no byte for this long (ms) fails with `REQUEST_TIMEOUT` (408). */
  bodyTimeoutMs: number;
}

/** True when the request carries multipart/form-data. */
export function isMultipart(req: FastifyRequest): boolean {
  return req.isMultipart();
}

/**
 * Reads a multipart/form-data body, streaming each file to `<stagingRoot>/<uuid>/` so that large
 * uploads never sit in memory. Going over the size or count limits rejects with `INPUT_TOO_LARGE`
 * (413) naming the limit; a body that stalls for `bodyTimeoutMs` with `REQUEST_TIMEOUT` (408); a
 * full disk with `DISK_FULL` (507). A malformed body (no boundary, a part without a
 * Content-Disposition or with a garbled header, see {@link PartHeaderCheck}) rejects with
 * `MULTIPART_INVALID`; busboy's own parse errors (a truncated body) are mapped in `http-errors.ts`.
 * With `turns`, the body is read in its turn (see {@link BodyReadTurns}); the stall timer starts then.
 */
export async function readMultipart(req: FastifyRequest, stagingRoot: string, limits: MultipartLimits, turns?: BodyReadTurns): Promise<MultipartBody> {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) throw quarryError('MULTIPART_INVALID', 'multipart/form-data needs a boundary parameter of 1 to 70 characters in its Content-Type');
  const endTurn = turns ? await turns.take(Number(req.headers['content-length']), connectionClosed(req.raw)) : () => {};
  try {
    return await readParts(req, stagingRoot, limits, boundary);
  } finally {
    endTurn();
  }
}

async function readParts(req: FastifyRequest, stagingRoot: string, limits: MultipartLimits, boundary: string): Promise<MultipartBody> {
  const dir = path.join(stagingRoot, randomUUID());
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw diskWriteError(e, stagingRoot) ?? e;
  }
  const body: MultipartBody = { fields: new Map(), files: [], cleanup: () => rm(dir, { recursive: true, force: true }) };
  const check = new PartHeaderCheck(boundary);
  const stall = new BodyStallWatch(limits.bodyTimeoutMs);
  const watch = (chunk: Buffer): void => {
    stall.touch();
    check.push(chunk);
  };
  const failIfMalformed = (): void => {
    if (check.problem) throw quarryError('MULTIPART_INVALID', `malformed multipart body: ${check.problem}`);
  };
  const parts = req.parts()[Symbol.asyncIterator]();
  // The first next() pipes the request into busboy; the check listens from then on, beside it.
  let next = parts.next();
  req.raw.on('data', watch);
  try {
    for (let r = await stall.race(next); !r.done; r = await stall.race(next)) {
      // The check reads each chunk right after busboy, so it has seen every header of this part.
      failIfMalformed();
      const part = r.value;
      if (part.type === 'file') {
        const target = path.join(dir, randomUUID());
        await stall.race(pipeline(part.file, createWriteStream(target)));
        body.files.push({ field: part.fieldname, filename: part.filename || 'file', mimetype: part.mimetype, path: target });
      } else {
        const list = body.fields.get(part.fieldname) ?? [];
        // A field sent as application/json arrives parsed; the routes read the text.
        list.push(typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
        body.fields.set(part.fieldname, list);
      }
      next = parts.next();
    }
    failIfMalformed();
  } catch (e) {
    await body.cleanup();
    throw tooLarge(e, limits) ?? diskWriteError(e, stagingRoot) ?? e;
  } finally {
    stall.stop();
    req.raw.off('data', watch);
  }
  return body;
}

/** @fastify/multipart's limit errors as `INPUT_TOO_LARGE`, naming the limit. */
function tooLarge(e: unknown, limits: MultipartLimits): Error | undefined {
  const code = (e as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return quarryError('INPUT_TOO_LARGE', `An uploaded file is larger than the size limit of ${limits.maxFileBytes} bytes (${mib(limits.maxFileBytes)}).`, {
      cause: e,
      details: { limit_bytes: limits.maxFileBytes },
    });
  }
  if (code === 'FST_FILES_LIMIT') {
    return quarryError('INPUT_TOO_LARGE', `There are too many files in one request: the limit is ${limits.maxFiles}.`, {
      cause: e,
      details: { limit_files: limits.maxFiles },
    });
  }
  return undefined;
}

const mib = (bytes: number): string => `${Number((bytes / 2 ** 20).toFixed(2))} MiB`;

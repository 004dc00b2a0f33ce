import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';

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

/** True when the request carries multipart/form-data. */
export function isMultipart(req: FastifyRequest): boolean {
  return req.isMultipart();
}

/**
 * Reads a multipart/form-data body, streaming each file to `<stagingRoot>/<uuid>/` so that large
 * uploads never sit in memory. Size and count limits are those registered with @fastify/multipart;
 * going over them rejects with a 413 error.
 */
export async function readMultipart(req: FastifyRequest, stagingRoot: string): Promise<MultipartBody> {
  const dir = path.join(stagingRoot, randomUUID());
  await mkdir(dir, { recursive: true });
  const body: MultipartBody = { fields: new Map(), files: [], cleanup: () => rm(dir, { recursive: true, force: true }) };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const target = path.join(dir, randomUUID());
        await pipeline(part.file, createWriteStream(target));
        body.files.push({ field: part.fieldname, filename: part.filename || 'file', mimetype: part.mimetype, path: target });
      } else {
        const list = body.fields.get(part.fieldname) ?? [];
        list.push(typeof part.value === 'string' ? part.value : String(part.value));
        body.fields.set(part.fieldname, list);
      }
    }
  } catch (e) {
    await body.cleanup();
    throw e;
  }
  return body;
}

import { readFile } from 'node:fs/promises';
import { isQuarryError, type ErrorCode } from '@quarry/core';
import { detectFileType } from '@quarry/nodes';

/** An answer of the legacy endpoint other than elements: a status, a `detail`, and the error code when there is one. */
export class LegacyError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly code?: string,
  ) {
    super(typeof detail === 'string' ? detail : 'invalid request');
  }

  /** The JSON body: `{detail}`, or `{detail, code}` for a coded error. */
  body(): { detail: unknown; code?: string } {
    return this.code ? { detail: this.detail, code: this.code } : { detail: this.detail };
  }
}

// The Unstructured API answers 400 for these; a compressed upload past the size limit is 413, a
// document the server stopped working on 503. Every other coded error is about the document: 422.
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  FILETYPE_UNSUPPORTED: 400,
  FILE_EMPTY: 400,
  INVALID_ARGUMENT: 400,
  INPUT_TOO_LARGE: 413,
  JOB_ABORTED: 503,
} satisfies Partial<Record<ErrorCode, number>>;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The document an error is about: its name, the type the client declared, and its staged file (to detect the type). */
export interface FailedUpload {
  filename: string;
  filetype?: string | undefined;
  path: string;
}

/**
 * The answer to an error from reading, partitioning or chunking one upload: every coded error
 * (FILE_UNREADABLE, ARCHIVE_TOO_LARGE, PDF_PASSWORD_REQUIRED, a timeout, ...) becomes
 * `{detail, code}` with 422, or the status the Unstructured API gives it (400 for an unsupported
 * type or an empty file), with its messages for those and for an unreadable PDF or DOCX.
 * Returns undefined for an uncoded error: a fault of the server, answered 500.
 */
export async function legacyPartitionError(e: unknown, upload: FailedUpload): Promise<LegacyError | undefined> {
  if (e instanceof LegacyError) return e;
  if (!isQuarryError(e)) return undefined;
  const status = STATUS_BY_CODE[e.code] ?? 422;
  const details = e.details as { filetype?: unknown };
  switch (e.code) {
    case 'FILETYPE_UNSUPPORTED':
      return new LegacyError(status, `File type ${typeof details.filetype === 'string' ? details.filetype : 'unknown'} is not supported.`, e.code);
    case 'FILE_EMPTY':
      return new LegacyError(status, `File ${upload.filename} is empty.`, e.code);
    case 'FILE_UNREADABLE': {
      const mime =
        (typeof details.filetype === 'string' ? details.filetype : undefined) ??
        upload.filetype ??
        (await readFile(upload.path)
          .then((b) => detectFileType(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), upload.filename))
          .then(
            (d) => d.mime,
            () => undefined,
          ));
      if (mime === 'application/pdf') return new LegacyError(status, 'File does not appear to be a valid PDF', e.code);
      if (mime === DOCX) return new LegacyError(status, 'File is not a valid docx', e.code);
      return new LegacyError(status, e.message, e.code);
    }
    default:
      return new LegacyError(status, e.message, e.code);
  }
}

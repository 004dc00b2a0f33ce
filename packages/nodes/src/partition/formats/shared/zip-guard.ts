import JSZip from 'jszip';
import { errorMessage, quarryError } from '@quarry/core/errors';

/** How far a ZIP-based document (DOCX, PPTX, XLSX, ODT, EPUB) may expand when read. */
export interface ZipLimits {
  /** Largest decompressed part. */
  maxPartBytes: number;
  /** Largest total of the parts read from one document. */
  maxTotalBytes: number;
  /** Most entries an archive may list. */
  maxEntries: number;
}

/**
 * Defaults: far above real office documents (a 600-page DOCX's main part is tens of MB), far below
 * what a decompression bomb (a few kB that inflate to gigabytes) would make the process allocate.
 */
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({ maxPartBytes: 256 * 2 ** 20, maxTotalBytes: 1024 * 2 ** 20, maxEntries: 50_000 });

const mib = (n: number): string => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 3 : 0)} MiB`;

/**
 * A tighter budget than {@link ZipLimits} shared by some parts of one archive (the XML parts an
 * office partitioner parses whole), with its own error.
 */
export interface PartsCap {
  maxBytes: number;
  /** Bytes inflated against this cap so far. */
  used: number;
  /** The error once the parts have inflated to `used` bytes, past `maxBytes`. */
  error: (used: number) => Error;
}

/**
 * Counts the bytes inflated from one archive against its limits. Parts are read as streams and
 * abandoned as soon as a limit is passed, so a bomb costs at most the limit, never its full size
 * (the sizes an archive declares are not trusted: they are written by whoever made the file).
 */
export class ZipBudget {
  private total = 0;

  constructor(
    private readonly filename: string,
    private readonly kind: string,
    readonly limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ) {}

  /** Refuses an archive listing more entries than allowed. */
  checkEntries(zip: JSZip): void {
    const n = Object.keys(zip.files).length;
    if (n > this.limits.maxEntries) throw this.tooLarge(`it lists ${n} entries (limit ${this.limits.maxEntries})`);
  }

  /**
   * Inflates one part, stopping with `ARCHIVE_TOO_LARGE` once a limit is passed, or with
   * `cap.error` once the parts counted against `cap` pass `cap.maxBytes`.
   */
  async read(file: JSZip.JSZipObject, cap?: PartsCap): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    await new Promise<void>((resolve, reject) => {
      const stream = file.nodeStream('nodebuffer');
      let done = false;
      const stop = (e: Error): void => {
        if (done) return;
        done = true;
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        reject(e);
      };
      stream.on('data', (chunk: Uint8Array) => {
        if (done) return;
        size += chunk.byteLength;
        this.total += chunk.byteLength;
        if (cap && (cap.used += chunk.byteLength) > cap.maxBytes) return stop(cap.error(cap.used));
        if (size > this.limits.maxPartBytes) return stop(this.tooLarge(`part ${file.name} inflates beyond ${mib(this.limits.maxPartBytes)}`));
        if (this.total > this.limits.maxTotalBytes) return stop(this.tooLarge(`its parts inflate beyond ${mib(this.limits.maxTotalBytes)} in total`));
        chunks.push(chunk);
      });
      stream.on('error', (e: Error) => stop(e));
      stream.on('end', () => {
        if (done) return;
        done = true;
        resolve();
      });
    });
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  private tooLarge(reason: string): Error {
    return quarryError(
      'ARCHIVE_TOO_LARGE',
      `${this.filename}: refused as a ${this.kind} file: ${reason} (a decompression bomb, or a document larger than quarry reads)`,
      {
        details: { filename: this.filename, ...this.limits },
      },
    );
  }
}

/**
 * What is wrong with a damaged archive, in words, from the message of the ZIP reader (jszip's
 * messages name its internals: "Expected Central-File-Header signature", "End of data reached").
 */
function zipDamage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  if (/end of central directory/i.test(m)) return 'the ZIP archive is damaged or cut short: its directory of members is missing';
  if (/End of data reached|missing \d+ bytes/i.test(m)) return 'the ZIP archive is damaged or cut short: a member lies past the end of the file';
  if (/central dir|Central-File-Header|compressedSize === -1/i.test(m)) return 'the ZIP archive is damaged: its directory of members is corrupt';
  if (/signature|Local-File-Header/i.test(m)) return 'the ZIP archive is damaged: a member does not start where its directory says';
  if (/compression .* unknown/i.test(m)) return 'the ZIP archive is damaged: a member names an unknown compression method';
  if (/Encrypted/i.test(m)) return 'the ZIP archive is encrypted';
  if (/Multi-volumes/i.test(m)) return 'the ZIP archive is split into volumes';
  return 'the ZIP archive is damaged';
}

/**
 * Opens `bytes` as a ZIP archive. A damaged one is `FILE_UNREADABLE` saying what is wrong with it,
 * e.g. `report.docx: not a valid DOCX (the ZIP archive is damaged: its directory of members is
 * corrupt)`; the reader's own message stays in `details.reason` and the error's `cause`.
 */
export async function openZip(bytes: Uint8Array, filename: string, kind: string): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (e) {
    throw quarryError('FILE_UNREADABLE', `${filename}: not a valid ${kind} (${zipDamage(e)})`, { cause: e, details: { filename, reason: errorMessage(e) } });
  }
}

/** `FILE_UNREADABLE` for a member that cannot be inflated (corrupt deflate data, a wrong size). */
export function memberUnreadable(filename: string, kind: string, member: string, e: unknown): Error {
  return quarryError('FILE_UNREADABLE', `${filename}: not a valid ${kind} (the ZIP archive is damaged: member ${member} cannot be decompressed)`, {
    cause: e,
    details: { filename, member, reason: errorMessage(e) },
  });
}

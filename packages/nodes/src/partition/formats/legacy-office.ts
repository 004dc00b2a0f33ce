import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, quarryError } from '@quarry/core/errors';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';

/** The environment variable naming the LibreOffice program (default `soffice` on the PATH). */
export const SOFFICE_ENV = 'QUARRY_SOFFICE';
/** The environment variable bounding one conversion, in milliseconds (default 120000). */
export const SOFFICE_TIMEOUT_ENV = 'QUARRY_SOFFICE_TIMEOUT_MS';

const INSTALL =
  'install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer libreoffice-calc libreoffice-impress; macOS: brew install --cask libreoffice) or set QUARRY_SOFFICE to its soffice program';

function timeoutMs(): number {
  const raw = Number(process.env[SOFFICE_TIMEOUT_ENV]);
  return Number.isInteger(raw) && raw > 0 ? raw : 120_000;
}

/**
 * Converts a legacy binary Office document (`.doc`, `.xls`, `.ppt`) to its modern form with
 * LibreOffice (`soffice --headless --convert-to`), in a temporary directory removed afterwards,
 * with its own profile (so conversions may run side by side), a timeout, and the document's abort
 * signal. Throws `LIBREOFFICE_MISSING` when the program cannot be started and `FILE_UNREADABLE` when
 * LibreOffice cannot convert the file.
 */
export async function convertWithLibreOffice(bytes: Uint8Array, options: FormatPartitionOptions, from: string, to: string): Promise<Uint8Array> {
  const program = process.env[SOFFICE_ENV] || 'soffice';
  const dir = await mkdtemp(path.join(tmpdir(), 'quarry-soffice-'));
  try {
    const input = path.join(dir, `document.${from}`);
    await writeFile(input, bytes);
    const args = [
      '--headless',
      '--norestore',
      '--nologo',
      `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
      '--convert-to',
      to,
      '--outdir',
      path.join(dir, 'out'),
      input,
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(program, args, { timeout: timeoutMs(), signal: options.signal, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (error, _stdout, stderr) => {
        if (!error) return resolve();
        const code = (error as NodeJS.ErrnoException).code;
        if (options.signal.aborted)
          return reject(
            quarryError('JOB_ABORTED', `${options.filename}: partitioning aborted during the LibreOffice conversion`, {
              cause: error,
              details: { filename: options.filename },
            }),
          );
        if (code === 'ENOENT' || code === 'EACCES') {
          return reject(
            quarryError(
              'LIBREOFFICE_MISSING',
              `${options.filename}: reading .${from} files needs LibreOffice, and "${program}" cannot be started: ${INSTALL}`,
              { cause: error, details: { filename: options.filename, program } },
            ),
          );
        }
        const why = error.killed
          ? `timed out after ${timeoutMs()} ms (${SOFFICE_TIMEOUT_ENV} raises it)`
          : `failed (${String(stderr).trim() || errorMessage(error)})`;
        reject(
          quarryError('FILE_UNREADABLE', `${options.filename}: LibreOffice's conversion of the .${from} file to .${to} ${why}`, {
            cause: error,
            details: { filename: options.filename, program },
          }),
        );
      });
    });
    try {
      return new Uint8Array(await readFile(path.join(dir, 'out', `document.${to}`)));
    } catch (e) {
      // soffice exits 0 and writes nothing when it cannot read the input as that format.
      throw quarryError(
        'FILE_UNREADABLE',
        `${options.filename}: LibreOffice cannot read it as a .${from} file (the file is damaged or not what its type says)`,
        { cause: e, details: { filename: options.filename, program } },
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Why `bytes` is not a whole OLE compound file (the container of Office 97-2003 documents), or
 * undefined when it is one: the signature, and every sector its header lists (the allocation table
 * and the directory) inside the file. LibreOffice imports a cut file as text instead of failing.
 */
export function compoundFileDamage(bytes: Uint8Array): string | undefined {
  if (bytes.length < 512 || CFB_MAGIC.some((b, i) => bytes[i] !== b)) return 'it is not an OLE compound file (the container of Office 97-2003 documents)';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return `its header names a sector size of 2^${shift} bytes`;
  const size = 2 ** shift;
  const sectors = [view.getUint32(0x30, true)];
  const fatSectors = view.getUint32(0x2c, true);
  for (let i = 0; i < Math.min(fatSectors, 109); i++) sectors.push(view.getUint32(0x4c + i * 4, true));
  // Sector n starts after the header, which takes one sector.
  const end = Math.max(...sectors.filter((n) => n < 0xfffffffa).map((n) => (n + 2) * size));
  return end > bytes.length ? `it is cut short: its header lists sectors up to byte ${end}, and it has ${bytes.length}` : undefined;
}

function legacy(from: string, to: string, modern: () => Promise<FormatPartitioner>): FormatPartitioner {
  return {
    async partition(bytes, options) {
      const damage = compoundFileDamage(bytes);
      if (damage)
        throw quarryError('FILE_UNREADABLE', `${options.filename}: not a readable .${from} file: ${damage}`, { details: { filename: options.filename } });
      const converted = await convertWithLibreOffice(bytes, options, from, to);
      return (await modern()).partition(converted, options);
    },
  };
}

/**
 * Word 97-2003 (`.doc`): converted to DOCX by LibreOffice, then partitioned as DOCX (as the Python
 * library `unstructured` does); `filetype` stays `application/msword`.
 */
export const docPartitioner: FormatPartitioner = legacy('doc', 'docx', async () => (await import('./docx.js')).docxPartitioner);

/** Excel 97-2003 (`.xls`): converted to XLSX by LibreOffice, then partitioned as XLSX (a Table per sheet). */
export const xlsPartitioner: FormatPartitioner = legacy('xls', 'xlsx', async () => (await import('./xlsx/index.js')).xlsxPartitioner);

/** PowerPoint 97-2003 (`.ppt`): converted to PPTX by LibreOffice, then partitioned as PPTX (a page per slide). */
export const pptPartitioner: FormatPartitioner = legacy('ppt', 'pptx', async () => (await import('./pptx.js')).pptxPartitioner);

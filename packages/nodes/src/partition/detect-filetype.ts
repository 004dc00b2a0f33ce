// The core entry: the package's main one adds Node stream and file readers, and their modules.
import { errorMessage, quarryError } from '@quarry/core/errors';
import { EXTENSION_MIME_TYPES, TEXT_FORMAT_EXTENSIONS, canonicalMimeType } from './formats/index.js';

/** A detected document type: its canonical MIME type and the file name's lower-case extension. */
export interface DetectedFileType {
  /** Canonical MIME type, as the Python library `unstructured` writes it to `metadata.filetype`. */
  mime: string;
  /** Lower-case extension with the dot (`.pdf`), or `''` when the name has none. */
  extension: string;
}

export { EXTENSION_MIME_TYPES, MIME_TYPE_ALIASES, canonicalMimeType } from './formats/index.js';

/** Lower-case extension of a file name, with the dot; `''` when there is none. */
export function fileExtension(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

const ZIP_OR_OLE = new Set(['application/zip', 'application/x-cfb']);
const SNIFF_BYTES = 65536;
const MAIL_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'delivered-to',
  'reply-to',
  'in-reply-to',
  'references',
  'content-type',
  'x-mailer',
  'sender',
]);

/**
 * Detects a document's type from its bytes, with the file name's extension as a fallback.
 *
 * Binary formats come from their magic numbers (the `file-type` package: PDF, images, and DOCX,
 * PPTX and XLSX recognised from their zip content). Text formats, which have no magic number, are
 * sniffed: HTML from a leading `<!doctype html>` or `<html>` (also after an XML declaration),
 * XML from `<?xml`, JSON when the text starts with `[` or `{` and parses, e-mail from RFC 822
 * header lines, CSV from a consistent comma count; Markdown, CSV, TSV and the other text formats
 * named by their extension keep it (as in the Python library `unstructured`); anything else that
 * decodes as text is `text/plain`.
 *
 * Throws `FILE_EMPTY` for zero bytes, `FILETYPE_UNSUPPORTED` for binary content of no known type, and
 * `FILE_UNREADABLE` for a damaged container (a ZIP whose central directory is broken) whose name has
 * no binary extension to go by.
 */
export async function detectFileType(bytes: Uint8Array, filename: string): Promise<DetectedFileType> {
  const extension = fileExtension(filename);
  if (bytes.length === 0) throw quarryError('FILE_EMPTY', `${filename} is empty`, { details: { filename } });

  const found = await sniffMagic(bytes, filename, extension);
  if (found) {
    const mime = canonicalMimeType(found.mime);
    if (mime === 'application/xml') return { mime: xmlOrHtml(sniffText(bytes), extension), extension };
    // A zip or OLE container whose inner type file-type cannot name (a .docx without
    // docProps, an old .doc/.xls/.msg) is taken by its extension when that is one of them.
    if (ZIP_OR_OLE.has(mime)) {
      const byExt = EXTENSION_MIME_TYPES[extension];
      return { mime: byExt && byExt !== 'text/plain' ? byExt : mime, extension };
    }
    return { mime, extension };
  }

  if (isSignedData(bytes)) return { mime: 'message/rfc822', extension };
  if (!looksLikeText(bytes)) {
    const byExt = EXTENSION_MIME_TYPES[extension];
    const label = byExt ? `${byExt} by its extension, but its content is binary` : 'application/octet-stream';
    throw quarryError('FILETYPE_UNSUPPORTED', `cannot partition ${filename}: unrecognised binary content (${label})`, {
      details: { filename, filetype: 'application/octet-stream' },
    });
  }
  return { mime: sniffTextType(sniffText(bytes), extension), extension };
}

/**
 * `file-type`'s verdict, or undefined when it knows no type. It reads inside containers (a ZIP's
 * central directory, to tell DOCX from XLSX) and throws on a damaged one: then a binary extension
 * decides, so that the format's partitioner reports the damage; without one it is FILE_UNREADABLE.
 */
async function sniffMagic(bytes: Uint8Array, filename: string, extension: string): Promise<{ mime: string } | undefined> {
  // file-type's verdict on a PDF header (no other signature it checks first starts so), without
  // loading it and its tokenizers: some 30 modules, a first PDF's only use of them.
  if (startsWithPdfHeader(bytes)) return { mime: 'application/pdf' };
  // Loaded with the first document (strtok3 and its tokenizers come with it), not with @quarry/nodes.
  const { fileTypeFromBuffer } = await import('file-type/core');
  try {
    return await fileTypeFromBuffer(bytes);
  } catch (e) {
    const byExt = EXTENSION_MIME_TYPES[extension];
    if (byExt && byExt !== 'text/plain') return { mime: byExt };
    throw quarryError('FILE_UNREADABLE', `${filename}: damaged content, its type cannot be detected (${errorMessage(e)})`, { cause: e, details: { filename } });
  }
}

const PDF_HEADER = [0x25, 0x50, 0x44, 0x46]; // %PDF

/** True when `bytes` start with `%PDF`, file-type's test for a PDF. */
export function startsWithPdfHeader(bytes: Uint8Array): boolean {
  return PDF_HEADER.every((b, k) => bytes[k] === b);
}

const SIGNED_DATA_OID = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];

/**
 * True for a CMS SignedData structure in DER (an S/MIME message saved as a binary `.p7s`): a
 * SEQUENCE, then the OID 1.2.840.113549.1.7.2. file-type names no such type; the e-mail
 * partitioner unwraps it.
 */
export function isSignedData(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0x30) return false;
  const lengthBytes = bytes[1]! & 0x80 ? bytes[1]! & 0x7f : 0;
  const at = 2 + lengthBytes;
  return SIGNED_DATA_OID.every((b, k) => bytes[at + k] === b);
}

function sniffTextType(text: string, extension: string): string {
  const head = stripLeadingNoise(text);
  const lower = head.slice(0, 64).toLowerCase();
  if (lower.startsWith('<!doctype html') || lower.startsWith('<html')) return 'text/html';
  if (lower.startsWith('<?xml')) return xmlOrHtml(text, extension);
  if (TEXT_FORMAT_EXTENSIONS.has(extension)) return EXTENSION_MIME_TYPES[extension]!;
  if ((head.startsWith('{') || head.startsWith('[')) && parsesAsJson(text)) return 'application/json';
  if (looksLikeEmail(text)) return 'message/rfc822';
  if (looksLikeCsv(text)) return 'text/csv';
  return 'text/plain';
}

// XHTML documents start with an XML declaration; the root element decides.
function xmlOrHtml(text: string, extension: string): string {
  if (extension === '.html' || extension === '.htm' || extension === '.xhtml') return 'text/html';
  const afterDecl = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/u, '');
  const root = stripLeadingNoise(afterDecl).slice(0, 64).toLowerCase();
  return root.startsWith('<html') || root.startsWith('<!doctype html') ? 'text/html' : 'application/xml';
}

// Leading BOM, whitespace and comments.
function stripLeadingNoise(text: string): string {
  let t = text.replace(/^\uFEFF/u, '').trimStart();
  while (t.startsWith('<!--')) {
    const end = t.indexOf('-->');
    if (end < 0) break;
    t = t.slice(end + 3).trimStart();
  }
  return t;
}

function sniffText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes.subarray(0, SNIFF_BYTES));
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/u, ''));
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the bytes read as text: a UTF-8/16 byte-order mark, or no NUL byte and under 2 %
 * control characters in the first 64 KiB (in UTF-8 or any single-byte encoding).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return true;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const sample = bytes.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x0b && b !== 0x1b) || b === 0x7f) control++;
  }
  return control <= sample.length * 0.02;
}

// RFC 822 header block: an optional mbox "From " line, then "Name: value" lines (with folded
// continuations) up to a blank line, including at least two well-known mail headers.
function looksLikeEmail(text: string): boolean {
  const lines = text.split(/\r?\n/u);
  let i = lines[0]?.startsWith('From ') ? 1 : 0;
  const names = new Set<string>();
  for (; i < lines.length && i < 200; i++) {
    const line = lines[i]!;
    if (line === '') break;
    if (/^[ \t]/u.test(line)) {
      if (names.size === 0) return false;
      continue;
    }
    const m = /^([!-9;-~]+):/u.exec(line);
    if (!m) return false;
    names.add(m[1]!.toLowerCase());
  }
  const known = [...names].filter((n) => MAIL_HEADERS.has(n));
  return known.length >= 2 && (names.has('from') || names.has('received') || names.has('message-id'));
}

// `unstructured`'s `_is_text_file_a_csv`: at least two lines, every one of the first ten with a
// comma, and the same number of commas (outside quotes) on each.
function looksLikeCsv(text: string): boolean {
  const lines = text.trim().split(/\r?\n/u).slice(0, 10);
  if (lines.length < 2) return false;
  if (lines.some((l) => !l.includes(','))) return false;
  const count = (l: string) => l.replace(/"[^"]*"/gu, '').split(',').length - 1;
  const header = count(lines[0]!);
  return lines.slice(1).every((l) => count(l) === header);
}

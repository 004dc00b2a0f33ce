import type { FormatDefinition } from '@quarry/core';

// Built-in modules sit beside this one, as .ts when run from source (tests) and .js when built.
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
/** The URL of a built-in format's module, by its path beside this one (`pdf/index`). */
export const moduleUrl = (file: string): string => new URL(`./${file}${EXT}`, import.meta.url).href;

/** One line of the built-in table: a format, the file types it reads and their other names. */
interface BuiltinFormat {
  format: FormatDefinition;
  /** Canonical MIME type (as the Python library `unstructured` writes `filetype`) per extension. */
  extensionTypes: Readonly<Record<string, string>>;
  /** Other names of a MIME type, mapped to the canonical one. */
  aliases: Readonly<Record<string, string>>;
  /** A text format whose extension is trusted over sniffing the content. */
  text: boolean;
}

/** How a built-in line reads its file types. */
interface BuiltinOptions {
  /** Other names of a MIME type, mapped to the canonical one. */
  aliases?: Readonly<Record<string, string>>;
  /**
   * A text format (no magic number) whose extension decides over sniffing, as in the Python
   * library `unstructured`: a `.md` that starts like JSON is still Markdown.
   */
  text?: boolean;
}

/**
 * A built-in format: `types` maps each canonical MIME type it reads (the first is its default
 * `filetype`) to that type's extensions; `aliases` maps other MIME names to a canonical type.
 */
function builtin(
  name: string,
  file: string,
  exportName: string,
  types: Readonly<Record<string, readonly string[]>>,
  { aliases = {}, text = false }: BuiltinOptions = {},
): BuiltinFormat {
  const extensionTypes = Object.fromEntries(Object.entries(types).flatMap(([mime, exts]) => exts.map((ext) => [ext, mime])));
  const format: FormatDefinition = Object.freeze({
    name,
    mimeTypes: Object.freeze([...Object.keys(types), ...Object.keys(aliases)]),
    extensions: Object.freeze(Object.keys(extensionTypes)),
    module: moduleUrl(file),
    exportName,
  });
  return { format, extensionTypes, aliases, text };
}

const CODE_EXTENSIONS = ['.c', '.cc', '.cpp', '.cs', '.cxx', '.go', '.java', '.js', '.php', '.py', '.rb', '.swift', '.ts', '.yaml', '.yml'];
const YAML = { 'text/yaml': 'text/plain', 'text/x-yaml': 'text/plain', 'application/yaml': 'text/plain', 'application/x-yaml': 'text/plain' };
const CSV = {
  'application/csv': 'text/csv',
  'application/x-csv': 'text/csv',
  'text/comma-separated-values': 'text/csv',
  'text/x-comma-separated-values': 'text/csv',
  'text/x-csv': 'text/csv',
};
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMAGES = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/tiff': ['.tif', '.tiff'],
  'image/bmp': ['.bmp'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
};

// The one table of file types: a format's line declares its MIME types, their extensions and
// aliases, and whether it is a text format whose extension decides; detection (`detect-filetype.ts`)
// derives its extension, alias and text-extension tables from it.
const BUILTIN_TABLE: readonly BuiltinFormat[] = [
  builtin('text', 'text', 'textPartitioner', { 'text/plain': ['.txt', '.text', '.log', ...CODE_EXTENSIONS] }, { aliases: YAML }),
  builtin(
    'markdown',
    'markdown/index',
    'markdownPartitioner',
    { 'text/markdown': ['.md', '.markdown'] },
    { aliases: { 'text/x-markdown': 'text/markdown' }, text: true },
  ),
  builtin(
    'html',
    'html/index',
    'htmlPartitioner',
    { 'text/html': ['.html', '.htm', '.xhtml'] },
    { aliases: { 'application/xhtml+xml': 'text/html' }, text: true },
  ),
  builtin('csv', 'csv', 'csvPartitioner', { 'text/csv': ['.csv'] }, { aliases: CSV, text: true }),
  builtin('tsv', 'csv', 'tsvPartitioner', { 'text/tsv': ['.tsv', '.tab'] }, { aliases: { 'text/tab-separated-values': 'text/tsv' }, text: true }),
  builtin('docx', 'docx', 'docxPartitioner', { 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'] }),
  builtin('pptx', 'pptx', 'pptxPartitioner', { 'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'] }),
  builtin('xlsx', 'xlsx/index', 'xlsxPartitioner', { [XLSX]: ['.xlsx'], 'application/vnd.ms-excel.sheet.macroEnabled.12': ['.xlsm'] }),
  builtin('eml', 'eml', 'emlPartitioner', { 'message/rfc822': ['.eml', '.p7s'] }, { text: true }),
  builtin('xml', 'xml', 'xmlPartitioner', { 'application/xml': ['.xml'] }, { aliases: { 'text/xml': 'application/xml' }, text: true }),
  builtin('json', 'json', 'jsonPartitioner', { 'application/json': ['.json'] }, { text: true }),
  builtin(
    'ndjson',
    'json',
    'ndjsonPartitioner',
    { 'application/x-ndjson': ['.ndjson', '.jsonl'] },
    { aliases: { 'application/jsonl': 'application/x-ndjson' }, text: true },
  ),
  builtin('odt', 'odt', 'odtPartitioner', { 'application/vnd.oasis.opendocument.text': ['.odt'] }),
  builtin('epub', 'epub', 'epubPartitioner', { 'application/epub': ['.epub'] }, { aliases: { 'application/epub+zip': 'application/epub' } }),
  builtin('pdf', 'pdf/index', 'pdfPartitioner', { 'application/pdf': ['.pdf'] }),
  builtin('image', 'image/index', 'imagePartitioner', IMAGES, { aliases: { 'image/jpg': 'image/jpeg' } }),
  builtin('heic', 'heic', 'heicPartitioner', { 'image/heic': ['.heic', '.heif'] }, { aliases: { 'image/heif': 'image/heic', 'image/x-heic': 'image/heic' } }),
  builtin(
    'msg',
    'msg',
    'msgPartitioner',
    { 'application/vnd.ms-outlook': ['.msg'] },
    { aliases: { 'application/x-ole-storage': 'application/vnd.ms-outlook' } },
  ),
  builtin('rtf', 'rtf', 'rtfPartitioner', { 'text/rtf': ['.rtf'] }, { aliases: { 'application/rtf': 'text/rtf' }, text: true }),
  builtin('rst', 'rst', 'rstPartitioner', { 'text/x-rst': ['.rst'] }, { aliases: { 'text/prs.fallenstein.rst': 'text/x-rst' }, text: true }),
  builtin('org', 'org', 'orgPartitioner', { 'text/org': ['.org'] }, { aliases: { 'text/x-org': 'text/org' }, text: true }),
  builtin('doc', 'legacy-office', 'docPartitioner', { 'application/msword': ['.doc'] }),
  builtin('xls', 'legacy-office', 'xlsPartitioner', { 'application/vnd.ms-excel': ['.xls'] }),
  builtin('ppt', 'legacy-office', 'pptPartitioner', { 'application/vnd.ms-powerpoint': ['.ppt'] }),
];

/**
 * The built-in formats, in lookup order (the first whose `mimeTypes` include a document's type
 * partitions it). The nodes plugin registers them; `partitionFile` uses them when given no list.
 * A format's module is imported the first time a document of that format arrives (`loadFormat`),
 * so a process that partitions only text never loads pdf.js.
 */
export const BUILTIN_FORMATS: readonly FormatDefinition[] = Object.freeze(BUILTIN_TABLE.map((b) => b.format));

/** Canonical MIME type per extension, as the Python library `unstructured` writes `filetype`. */
export const EXTENSION_MIME_TYPES: Readonly<Record<string, string>> = Object.freeze(Object.assign({}, ...BUILTIN_TABLE.map((b) => b.extensionTypes)));

/**
 * Extensions of the text formats (Markdown, HTML, CSV, e-mail, ...) that decide a document's type
 * over sniffing its content, as in the Python library `unstructured`.
 */
export const TEXT_FORMAT_EXTENSIONS: ReadonlySet<string> = new Set(BUILTIN_TABLE.filter((b) => b.text).flatMap((b) => Object.keys(b.extensionTypes)));

/** Other names of a MIME type, mapped to the canonical one. */
export const MIME_TYPE_ALIASES: Readonly<Record<string, string>> = Object.freeze(Object.assign({}, ...BUILTIN_TABLE.map((b) => b.aliases)));

/** The canonical form of a MIME type (`text/x-markdown` -> `text/markdown`), parameters dropped. */
export function canonicalMimeType(mime: string): string {
  const m = mime.split(';')[0]!.trim().toLowerCase();
  return MIME_TYPE_ALIASES[m] ?? m;
}

/**
 * The format for a MIME type among `formats` (aliases such as `text/x-markdown` match their
 * canonical form). For `application/octet-stream` the file extension decides.
 */
export function findFormat(formats: readonly FormatDefinition[], mime: string, extension: string): FormatDefinition | undefined {
  const wanted = canonicalMimeType(mime);
  const byMime = formats.find((f) => f.mimeTypes.some((m) => canonicalMimeType(m) === wanted));
  if (byMime || wanted !== 'application/octet-stream') return byMime;
  const ext = extension.toLowerCase();
  return formats.find((f) => f.extensions.includes(ext));
}

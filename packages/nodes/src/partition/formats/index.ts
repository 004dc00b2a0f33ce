import type { FormatDefinition } from '@quarry/core';
import { QuarryError, errorMessage } from '@quarry/core/errors';
import { canonicalMimeType } from '../detect-filetype.js';
import type { FormatPartitioner } from '../types.js';

// Built-in modules sit beside this one, as .ts when run from source (tests) and .js when built.
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const moduleUrl = (file: string): string => new URL(`./${file}${EXT}`, import.meta.url).href;
const builtin = (name: string, file: string, exportName: string, mimeTypes: readonly string[], extensions: readonly string[]): FormatDefinition =>
  Object.freeze({ name, mimeTypes, extensions, module: moduleUrl(file), exportName });

/**
 * The built-in formats, in lookup order (the first whose `mimeTypes` include a document's type
 * partitions it). The nodes plugin registers them; `partitionFile` uses them when given no list.
 * A format's module is imported the first time a document of that format arrives, so a process
 * that partitions only text never loads pdf.js.
 */
export const BUILTIN_FORMATS: readonly FormatDefinition[] = Object.freeze([
  builtin('text', 'text', 'textPartitioner', ['text/plain'], ['.txt', '.text', '.log', '.c', '.cc', '.cpp', '.cs', '.cxx', '.go', '.java', '.js', '.php', '.py', '.rb', '.swift', '.ts', '.yaml', '.yml']),
  builtin('markdown', 'markdown/index', 'markdownPartitioner', ['text/markdown', 'text/x-markdown'], ['.md', '.markdown']),
  builtin('html', 'html/index', 'htmlPartitioner', ['text/html', 'application/xhtml+xml'], ['.html', '.htm', '.xhtml']),
  builtin('csv', 'csv', 'csvPartitioner', ['text/csv', 'application/csv', 'text/x-csv'], ['.csv']),
  builtin('tsv', 'csv', 'tsvPartitioner', ['text/tab-separated-values'], ['.tsv']),
  builtin('docx', 'docx', 'docxPartitioner', ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'], ['.docx']),
  builtin('pptx', 'pptx', 'pptxPartitioner', ['application/vnd.openxmlformats-officedocument.presentationml.presentation'], ['.pptx']),
  builtin('xlsx', 'xlsx/index', 'xlsxPartitioner', ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel.sheet.macroEnabled.12'], ['.xlsx', '.xlsm']),
  builtin('eml', 'eml', 'emlPartitioner', ['message/rfc822'], ['.eml']),
  builtin('xml', 'xml', 'xmlPartitioner', ['application/xml', 'text/xml'], ['.xml']),
  builtin('json', 'json', 'jsonPartitioner', ['application/json'], ['.json']),
  builtin('ndjson', 'json', 'ndjsonPartitioner', ['application/x-ndjson', 'application/jsonl'], ['.ndjson', '.jsonl']),
  builtin('odt', 'odt', 'odtPartitioner', ['application/vnd.oasis.opendocument.text'], ['.odt']),
  builtin('epub', 'epub', 'epubPartitioner', ['application/epub', 'application/epub+zip'], ['.epub']),
  builtin('pdf', 'pdf/index', 'pdfPartitioner', ['application/pdf'], ['.pdf']),
  builtin('image', 'image/index', 'imagePartitioner', ['image/png', 'image/jpeg', 'image/tiff', 'image/bmp', 'image/gif', 'image/webp'], ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.bmp', '.gif', '.webp']),
]);

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

// The text partitioner is imported by a literal path, which a bundler follows: the partition
// worker's bundle (scripts/bundle-worker.mjs) carries it, since a one-line note is the document a
// start-up is timed on. The other formats stay modules of their own, imported by URL.
const BUILTIN_IMPORTS: ReadonlyMap<string, () => Promise<Record<string, unknown>>> = new Map([
  [moduleUrl('text'), () => import('./text.js')],
]);

const loaded = new Map<string, Promise<FormatPartitioner>>();

/**
 * Imports a format's partitioner (once per process). Throws `INVALID_PLUGIN` naming the module
 * when it cannot be imported or its export has no `partition` function.
 */
export function loadFormat(format: FormatDefinition): Promise<FormatPartitioner> {
  const key = `${format.module}#${format.exportName}`;
  let hit = loaded.get(key);
  if (!hit) {
    const load = BUILTIN_IMPORTS.get(format.module) ?? ((): Promise<Record<string, unknown>> => import(format.module));
    hit = load().then(
      (mod: Record<string, unknown>) => {
        const partitioner = mod[format.exportName] as Partial<FormatPartitioner> | undefined;
        if (typeof partitioner?.partition !== 'function') throw invalid(format, `has no export "${format.exportName}" with a partition function`);
        return partitioner as FormatPartitioner;
      },
      (e: unknown) => {
        throw invalid(format, `cannot be imported (${errorMessage(e)})`);
      },
    );
    // A failed import is not cached: the module may be installed later.
    hit.catch(() => loaded.delete(key));
    loaded.set(key, hit);
  }
  return hit;
}

function invalid(format: FormatDefinition, what: string): QuarryError {
  return new QuarryError('INVALID_PLUGIN', `format "${format.name}": module ${format.module} ${what}`, { details: { format: format.name, module: format.module } });
}

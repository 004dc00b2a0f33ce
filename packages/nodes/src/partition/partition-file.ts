import type { DataSourceMetadata, Element, FormatDefinition, Logger } from '@quarry/core';
import { assignElementIds } from '@quarry/core/element';
import { errorMessage, isQuarryError, quarryError } from '@quarry/core/errors';
import { silentLogger } from '@quarry/core/logger';
import { canonicalMimeType, detectFileType, fileExtension, type DetectedFileType } from './detect-filetype.js';
import { PDF_ENGINES, type PdfEngine } from './formats/pdf/engine.js';
import { setElementHierarchy } from './element-hierarchy.js';
import { BUILTIN_FORMATS, findFormat } from './formats/index.js';
import { loadFormat } from './formats/load-format.js';
import { fileBaseName, stampFileMetadata } from './file-metadata.js';
import { limitError, partitionLimits } from './limits.js';
import { shiftPageNumbers, validStartingPageNumber } from './page-numbers.js';
import type { FormatPartitionOptions, PartitionStrategy } from './types.js';

/** What to partition and how; every field but `filename` is optional (defaults from the Unstructured workflow API). */
export interface PartitionFileRequest {
  /** The document's file name or path; its basename goes to `metadata.filename`. */
  filename: string;
  /** Written to `metadata.file_directory`; defaults to the directory part of `filename`, if any. */
  file_directory?: string;
  /** The document's MIME type when known; skips detection. */
  filetype?: string;
  /** Written to `metadata.last_modified` (ISO 8601). */
  last_modified?: string;
  /** Written to `metadata.data_source` of every element. */
  data_source?: DataSourceMetadata;
  /** Default `auto`: each format chooses (text formats have one way; PDFs and images decide by content). */
  strategy?: PartitionStrategy;
  /** Encoding of text formats without a declared charset. Default `utf-8`. */
  encoding?: string;
  /** Default false. */
  include_page_breaks?: boolean;
  /** Default false. */
  infer_table_structure?: boolean;
  /** Default false; either this or `infer_table_structure` asks for `text_as_html`. */
  pdf_infer_table_structure?: boolean;
  /** Default false. */
  xml_keep_tags?: boolean;
  /**
   * Tesseract languages for OCR (`eng`, `kor`, `eng+deu`, ISO 639-1 `ko`), or `auto`: detect each
   * page's script and use its installed languages. Default `['auto']`.
   */
  ocr_languages?: string[];
  /** Default `[]`. */
  extract_image_block_types?: string[];
  /** Default false. */
  coordinates?: boolean;
  /**
   * The engine reading PDF text layers: `pdfium` (default: PDFium in WebAssembly, the faster) or
   * `pdfjs` (Mozilla's pdf.js). `hi_res` reads with pdf.js either way.
   */
  pdf_engine?: PdfEngine;
  /** Element types to drop from the result. Default none. */
  exclude_elements?: string[];
  /** Default true: UUID ids; false: `unstructured`'s deterministic SHA-256 ids. */
  unique_element_ids?: boolean;
  /**
   * Page number of the document's first page (default 1). Page numbers are shifted before ids are
   * hashed, so a page range sent alone (the official clients split PDFs and send each range with
   * its first page's number) gets the same ids as in the whole document.
   */
  starting_page_number?: number;
  /** Document languages (ISO 639 codes); absent or containing `auto` means detect. */
  languages?: string[];
  /**
   * Only these pages (1-based) of a PDF read with `hi_res` or `ocr_only`: the others are neither read
   * nor OCR'd (the Auto router sends only its hi_res pages). Default every page; other formats ignore it.
   */
  pages?: ReadonlySet<number>;
  /** Aborts partitioning. */
  signal?: AbortSignal;
  /**
   * Called (once or more) as soon as the document turns out to need seconds of work:
   * OCR of an image or of a scanned PDF page. A partition pool hands a small document's process
   * off the small lane on it, so other small documents do not wait behind it.
   */
  onHeavyWork?: () => void;
  /** Receives warnings from format partitioners. */
  logger?: Logger;
  /**
   * The formats to partition with, in lookup order: an engine's registered formats (plugins
   * first). Default the built-in ones.
   */
  formats?: readonly FormatDefinition[];
}

const STRATEGIES: readonly PartitionStrategy[] = ['fast', 'hi_res', 'auto', 'vlm', 'ocr_only'];

/**
 * Partitions one document: detects its type, runs the matching format partitioner, then applies
 * what every format shares, as `unstructured`'s `apply_metadata` does: `filename` (basename),
 * `file_directory`, `filetype` (canonical MIME type), `last_modified`, `data_source`, `languages`
 * (detected when the partitioner set none), `parent_id` from the element hierarchy, page numbers
 * from `starting_page_number`, final ids (UUIDs, or with `unique_element_ids: false`
 * `unstructured`'s hashes of the final page numbers) and `exclude_elements`.
 *
 * Errors: `FILE_EMPTY` (no bytes), `FILETYPE_UNSUPPORTED` (no partitioner for the type),
 * `FILE_UNREADABLE` (the partitioner failed; the cause is kept), `JOB_ABORTED` (signal),
 * `INVALID_ARGUMENT` (a malformed request).
 *
 * @example
 * ```ts
 * const elements = await partitionFile(await readFile('report.html'), { filename: 'report.html' });
 * ```
 */
export async function partitionFile(bytes: Uint8Array, request: PartitionFileRequest): Promise<Element[]> {
  validate(request);
  // Some parsers (pdf.js) refuse a Node Buffer; hand every partitioner a plain Uint8Array.
  if (Buffer.isBuffer(bytes)) bytes = new Uint8Array(bytes);
  const elements = await partitionDocument(bytes, request, 0);
  shiftPageNumbers(elements, request.starting_page_number ?? 1);
  // The rekey gave every element a fresh UUID already; only the hashed ids depend on the final page numbers.
  if (!(request.unique_element_ids ?? true)) assignElementIds(elements, { unique: false });
  return excludeElements(elements, request.exclude_elements ?? []);
}

async function partitionDocument(bytes: Uint8Array, request: PartitionFileRequest, depth: number): Promise<Element[]> {
  const signal = request.signal ?? new AbortController().signal;
  const logger = request.logger ?? silentLogger;
  const filename = fileBaseName(request.filename);
  throwIfAborted(signal, filename);
  if (bytes.length === 0) throw quarryError('FILE_EMPTY', `${filename} is empty`, { details: { filename } });

  const detected: DetectedFileType = request.filetype
    ? { mime: canonicalMimeType(request.filetype), extension: fileExtension(filename) }
    : await detectFileType(bytes, filename);
  const format = findFormat(request.formats ?? BUILTIN_FORMATS, detected.mime, detected.extension);
  if (!format) {
    throw quarryError('FILETYPE_UNSUPPORTED', `cannot partition ${filename}: no partitioner for file type ${detected.mime}`, {
      details: { filename, filetype: detected.mime },
    });
  }

  const options: FormatPartitionOptions = {
    strategy: request.strategy ?? 'auto',
    encoding: request.encoding ?? 'utf-8',
    include_page_breaks: request.include_page_breaks ?? false,
    infer_table_structure: (request.infer_table_structure ?? false) || (request.pdf_infer_table_structure ?? false),
    xml_keep_tags: request.xml_keep_tags ?? false,
    ocr_languages: request.ocr_languages ?? ['auto'],
    extract_image_block_types: request.extract_image_block_types ?? [],
    coordinates: request.coordinates ?? false,
    ...(request.pdf_engine ? { pdf_engine: request.pdf_engine } : {}),
    ...(request.pages ? { pages: request.pages } : {}),
    filename,
    filetype: detected.mime,
    signal,
    logger,
    ...(request.onHeavyWork ? { onHeavyWork: request.onHeavyWork } : {}),
    embeddingDepth: depth,
    partitionEmbedded: async (inner, innerName) => {
      // The formats leave out attachments past the limit themselves (with a warning); this stops
      // one that does not. A document's own parts (an e-mail's body) sit one level below it.
      const limits = partitionLimits();
      if (depth > limits.maxEmbeddingDepth) throw limitError('DOCUMENT_TOO_COMPLEX', 'maxEmbeddingDepth', filename, depth + 1, limits);
      const { pages: _pages, ...inherited } = request;
      const nested = await partitionDocument(
        inner,
        { ...inherited, filename: innerName, filetype: undefined, file_directory: undefined, last_modified: undefined },
        depth + 1,
      );
      for (const el of nested) el.metadata.attached_to_filename ??= filename;
      return nested;
    },
  };

  const partitioner = await loadFormat(format);
  let elements: Element[];
  try {
    elements = await partitioner.partition(bytes, options);
  } catch (e) {
    if (isQuarryError(e)) throw e;
    throwIfAborted(signal, filename);
    // A library's own failure (a TypeError inside a parser, a reader's internal message) is no
    // sentence for a user: they learn the file could not be read; the message stays in details.
    throw quarryError(
      'FILE_UNREADABLE',
      `${filename}: cannot be read as ${format.name.toUpperCase()} (${detected.mime}): the file is damaged or not what its type says`,
      {
        cause: e,
        details: { filename, filetype: detected.mime, partitioner: format.name, reason: errorMessage(e) },
      },
    );
  }
  throwIfAborted(signal, filename);

  rekey(elements);
  const own = elements.filter((el) => !el.metadata.attached_to_filename);
  stampFileMetadata(own, {
    filename,
    path: request.filename,
    ...(request.file_directory ? { file_directory: request.file_directory } : {}),
    filetype: detected.mime,
    ...(request.last_modified ? { last_modified: request.last_modified } : {}),
    ...(request.languages ? { languages: request.languages } : {}),
  });
  // Attachments carry the provenance of the file they came in.
  if (request.data_source) for (const el of elements) el.metadata.data_source = { ...request.data_source };
  if (!own.some((el) => el.metadata.parent_id !== undefined)) setElementHierarchy(own);
  return elements;
}

// Partitioners' temporary ids only need to be unique within one partitioner's output; embedded
// documents come from other partitioners, so every element gets a fresh UUID (parents remapped)
// before the outputs are mixed, and a parent id that names no element of the document is dropped.
function rekey(elements: Element[]): void {
  assignElementIds(elements, { unique: true });
  if (!elements.some((el) => el.metadata.parent_id !== undefined)) return;
  const ids = new Set(elements.map((el) => el.element_id));
  for (const el of elements) {
    if (el.metadata.parent_id !== undefined && !ids.has(el.metadata.parent_id)) delete el.metadata.parent_id;
  }
}

// Drops excluded types; an element whose parent was dropped is attached to the nearest kept
// ancestor (or to none).
function excludeElements(elements: Element[], exclude: readonly string[]): Element[] {
  if (exclude.length === 0) return elements;
  const drop = new Set(exclude);
  const byId = new Map(elements.map((el) => [el.element_id, el]));
  const kept = elements.filter((el) => !drop.has(el.type));
  for (const el of kept) {
    let parent = el.metadata.parent_id === undefined ? undefined : byId.get(el.metadata.parent_id);
    while (parent && drop.has(parent.type)) parent = parent.metadata.parent_id === undefined ? undefined : byId.get(parent.metadata.parent_id);
    if (parent) el.metadata.parent_id = parent.element_id;
    else delete el.metadata.parent_id;
  }
  return kept;
}

function validate(request: PartitionFileRequest): void {
  if (typeof request?.filename !== 'string' || !request.filename.trim()) {
    throw quarryError('INVALID_ARGUMENT', 'partitionFile needs a non-empty filename');
  }
  validStartingPageNumber(request.starting_page_number);
  if (request.pdf_engine !== undefined && !PDF_ENGINES.includes(request.pdf_engine)) {
    throw quarryError('INVALID_ARGUMENT', `unknown pdf_engine "${String(request.pdf_engine)}"; expected one of ${PDF_ENGINES.join(', ')}`, {
      details: { pdf_engine: request.pdf_engine },
    });
  }
  if (request.strategy !== undefined && !STRATEGIES.includes(request.strategy)) {
    throw quarryError('INVALID_ARGUMENT', `unknown strategy "${String(request.strategy)}"; expected one of ${STRATEGIES.join(', ')}`, {
      details: { strategy: request.strategy },
    });
  }
}

function throwIfAborted(signal: AbortSignal, filename: string): void {
  if (signal.aborted) throw quarryError('JOB_ABORTED', `partitioning ${filename} was aborted`, { details: { filename } });
}

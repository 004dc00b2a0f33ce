import { flatElementMetadata, QuarryError, type Element, type FlatMetadataValue } from '@quarry/core';
import { chunk } from './chunk.js';
import { documentElements, type DocumentElements, type DocumentsInput } from './document-elements.js';

/**
 * What one framework document holds: an element (`elements`), a whole file (`single`), a page
 * (`paged`; a file without pages is one), or a `chunk_by_title` chunk (`chunks`), as the
 * Unstructured loaders of LangChain offer.
 */
export type LoadMode = 'elements' | 'single' | 'paged' | 'chunks';

/**
 * What a document that fails does: `skip` (it is left out, kept in `failures` and warned about),
 * `throw` (a `QuarryError` with its code ends the load), or a function that is handed each one.
 */
export type FailurePolicy = 'skip' | 'throw' | ((failed: DocumentElements) => void);

/** One framework document: its text, quarry's flat metadata and where it came from. */
export interface DocumentPart {
  /** The element or chunk id; `<source>` for a whole file, `<source>#page=<n>` for a page. */
  id: string;
  text: string;
  /** Element metadata, flat ({@link flatElementMetadata}); a file or a page keeps the fields that hold for all of it. */
  metadata: Record<string, FlatMetadataValue>;
  /** The path (or the bytes' file name, `bytes[i]` for unnamed bytes, or the workflow's record id) of the document. */
  source: string;
  /** The file's path, when the document was read from one. */
  path?: string;
  /** The page the part is on (or starts on), when the format has pages. */
  pageNumber?: number;
}

/** Options of {@link documentParts}. */
export interface DocumentPartsOptions {
  /** Default `paged`. */
  mode?: LoadMode;
  /** Default `skip`. */
  onFailure?: FailurePolicy;
  /** Receives each skipped document (with `onFailure: 'skip'`). */
  failures?: DocumentElements[];
  /** Where a skipped document is warned about; default `console.warn`. */
  warn?: (message: string) => void;
}

/** Metadata fields that hold for a whole file or page, kept on `single` and `paged` parts. */
const DOCUMENT_FIELDS = ['filename', 'file_directory', 'filetype', 'last_modified', 'url', 'record_locator', 'data_source_url', 'data_source_record_locator'];
const CHUNK_TYPES = new Set<string>(['CompositeElement', 'TableChunk']);

/**
 * Every document of `input` as framework documents, one source document at a time (memory holds
 * one document's elements): per element, per file, per page or per chunk. A document that fails is
 * skipped and reported, thrown, or handed to a function ({@link FailurePolicy}); never dropped unsaid.
 *
 * @example
 * ```ts
 * for await (const part of documentParts({ paths: 'docs/', include: ['*.pdf'] }, { mode: 'paged' })) console.log(part.source, part.pageNumber, part.text.length);
 * ```
 */
export async function* documentParts(input: DocumentsInput, options: DocumentPartsOptions = {}): AsyncGenerator<DocumentPart, void, undefined> {
  const mode = options.mode ?? 'paged';
  const from: DocumentsInput = mode === 'chunks' && !('engine' in input) && !input.chunk ? { ...input, chunk: { subtype: 'chunk_by_title' } } : input;
  for await (const doc of documentElements(from)) {
    if (doc.error) {
      fail(doc, options);
      continue;
    }
    // A workflow without a chunk node gives elements: chunks mode chunks them by title here.
    const elements =
      mode === 'chunks' && 'engine' in input && !doc.elements.some((e) => CHUNK_TYPES.has(e.type)) ? await chunk(doc.elements, 'chunk_by_title') : doc.elements;
    yield* partsOf(elements, { source: doc.source, ...(doc.path === undefined ? {} : { path: doc.path }) }, mode);
  }
}

function fail(doc: DocumentElements, options: DocumentPartsOptions): void {
  const error = doc.error!;
  const policy = options.onFailure ?? 'skip';
  if (policy === 'throw')
    throw QuarryError.from(error.code, `${doc.source} failed in ${error.node}: ${error.message}`, { details: { source: doc.source, node: error.node } });
  if (typeof policy === 'function') {
    policy(doc);
    return;
  }
  options.failures?.push(doc);
  (options.warn ?? console.warn)(`quarry: skipped ${doc.source}: ${error.code}: ${error.message}`);
}

function* partsOf(elements: readonly Element[], from: { source: string; path?: string }, mode: LoadMode): Generator<DocumentPart> {
  const { source } = from;
  const withText = elements.filter((e) => e.text.trim() !== '');
  if (mode === 'elements' || mode === 'chunks') {
    for (const e of withText) yield { id: e.element_id, text: e.text, metadata: flatElementMetadata(e), ...from, ...page(e.metadata.page_number) };
    return;
  }
  if (withText.length === 0) return;
  if (mode === 'single') {
    yield { id: source, text: joined(withText), metadata: shared(withText), ...from, ...page(withText[0]!.metadata.page_number) };
    return;
  }
  for (const group of pages(withText)) {
    const pageNumber = group[0]!.metadata.page_number;
    const metadata = shared(group);
    if (pageNumber !== undefined) metadata.page_number = pageNumber;
    if (group[0]!.metadata.page_name !== undefined) metadata.page_name = group[0]!.metadata.page_name;
    yield { id: pageNumber === undefined ? source : `${source}#page=${pageNumber}`, text: joined(group), metadata, ...from, ...page(pageNumber) };
  }
}

const joined = (elements: readonly Element[]): string => elements.map((e) => e.text).join('\n\n');
const page = (n: number | undefined): { pageNumber?: number } => (n === undefined ? {} : { pageNumber: n });

// Consecutive elements of one page; an element without a page number stays with the page before it.
function pages(elements: readonly Element[]): Element[][] {
  const out: Element[][] = [];
  for (const e of elements) {
    const last = out.at(-1);
    const n = e.metadata.page_number;
    if (last && (n === undefined || n === last[0]!.metadata.page_number)) last.push(e);
    else out.push([e]);
  }
  return out;
}

// The fields of the first element that describe the file, and every element's languages.
function shared(elements: readonly Element[]): Record<string, FlatMetadataValue> {
  const first = flatElementMetadata(elements[0]!);
  const out: Record<string, FlatMetadataValue> = {};
  for (const key of DOCUMENT_FIELDS) if (first[key] !== undefined) out[key] = first[key];
  const languages = [...new Set(elements.flatMap((e) => e.metadata.languages ?? []))];
  if (languages.length) out.languages = languages;
  return out;
}

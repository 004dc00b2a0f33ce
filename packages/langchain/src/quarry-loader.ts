import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import {
  documentParts,
  type DocumentElements,
  type DocumentPart,
  type DocumentsInput,
  type FailurePolicy,
  type FileDocumentsInput,
  type FileInput,
  type LoadMode,
} from '@quarry/nodes';

/**
 * Options of {@link QuarryLoader}: the mode and failure policy, and for files, which files of a
 * folder (`include`, `exclude` globs, `recursive`), the partition settings of the workflow's
 * partition node (`strategy`, `ocr_languages`, ...) and the chunker (`chunk`: mode `chunks`
 * defaults to `{ subtype: 'chunk_by_title' }`).
 */
export interface QuarryLoaderOptions extends Omit<FileDocumentsInput, 'paths'> {
  /**
   * One `Document` per element (`elements`), per file (`single`), per page (`paged`, the default:
   * a format without pages gives one per file) or per `chunk_by_title` chunk (`chunks`).
   */
  mode?: LoadMode;
  /**
   * A document that fails: `skip` (the default) leaves it out, warns with `console.warn` and keeps
   * it in {@link QuarryLoader.failures}; `throw` ends the load with a `QuarryError` carrying the
   * document's code; a function is handed each failed document (`source`, `error.code`, ...).
   */
  onFailure?: FailurePolicy;
}

/** Where {@link QuarryLoader} reads: a path (file or folder), bytes, a list of them, or a quarry workflow. */
export type QuarryLoaderInput = FileInput | readonly FileInput[] | DocumentsInput;

/**
 * A LangChain document loader over quarry: files, folders (walked recursively, with `include` and
 * `exclude` globs), bytes, or the output of a quarry workflow, partitioned into typed elements and
 * given as `Document`s per page (default), per file, per element or per chunk. Metadata follows
 * LangChain's habits, `source` (the path) and `loc.pageNumber`, beside quarry's own, flat
 * (`filename`, `filetype`, `page_number`, `languages`; per element also `element_id`, `type`,
 * `text_as_html`, ...). A document that fails is skipped and reported by default.
 *
 * @example
 * ```ts
 * const pages = await new QuarryLoader('report.pdf').load();
 * const chunks = await new QuarryLoader('docs/', { include: ['*.pdf', '*.docx'], mode: 'chunks' }).load();
 * for await (const doc of new QuarryLoader({ engine, plan, options: { source } }).lazyLoad()) index(doc);
 * ```
 */
export class QuarryLoader extends BaseDocumentLoader {
  private readonly input: DocumentsInput;
  /** The documents the last load skipped (with `onFailure: 'skip'`), each with its `source` and `error`. */
  readonly failures: DocumentElements[] = [];

  constructor(
    input: QuarryLoaderInput,
    private readonly options: QuarryLoaderOptions = {},
  ) {
    super();
    const { mode: _mode, onFailure: _onFailure, ...files } = options;
    this.input = isFileInput(input) ? { ...files, paths: input } : input;
  }

  /** Every document at once. */
  async load(): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoad()) out.push(doc);
    return out;
  }

  /** The same documents one at a time, a source document's as soon as it is read: memory holds one source document. */
  async *lazyLoad(): AsyncGenerator<Document> {
    this.failures.length = 0;
    const { mode, onFailure } = this.options;
    for await (const part of documentParts(this.input, { ...(mode ? { mode } : {}), ...(onFailure ? { onFailure } : {}), failures: this.failures })) {
      yield new Document({ id: part.id, pageContent: part.text, metadata: langchainMetadata(part) });
    }
  }
}

// LangChain's own keys (`source`, `loc.pageNumber`, as its PDF loader writes them) beside quarry's.
function langchainMetadata(part: DocumentPart): Record<string, unknown> {
  return { ...part.metadata, source: part.source, ...(part.pageNumber === undefined ? {} : { loc: { pageNumber: part.pageNumber } }) };
}

function isFileInput(v: QuarryLoaderInput): v is FileInput | readonly FileInput[] {
  return typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v) || 'bytes' in v;
}

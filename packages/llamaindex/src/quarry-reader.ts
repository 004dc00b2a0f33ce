import { basename } from 'node:path';
import { Document, type BaseReader } from 'llamaindex';
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
import { hiddenKeys } from './node-metadata.js';

/**
 * Options of {@link QuarryReader}: the mode and failure policy, and for files, which files of a
 * folder (`include`, `exclude` globs, `recursive`), the partition settings of the workflow's
 * partition node (`strategy`, `ocr_languages`, ...) and the chunker (`chunk`: mode `chunks`
 * defaults to `{ subtype: 'chunk_by_title' }`).
 */
export interface QuarryReaderOptions extends Omit<FileDocumentsInput, 'paths'> {
  /**
   * One `Document` per element (`elements`), per file (`single`), per page (`paged`, the default:
   * a format without pages gives one per file) or per `chunk_by_title` chunk (`chunks`).
   */
  mode?: LoadMode;
  /**
   * A document that fails: `skip` (the default) leaves it out, warns with `console.warn` and keeps
   * it in {@link QuarryReader.failures}; `throw` ends the read with a `QuarryError` carrying the
   * document's code; a function is handed each failed document (`source`, `error.code`, ...).
   */
  onFailure?: FailurePolicy;
}

/** What {@link QuarryReader} reads: a path (file or folder), bytes, a list of them, or a quarry workflow. */
export type QuarryReaderInput = FileInput | readonly FileInput[] | DocumentsInput;

/**
 * A LlamaIndex reader over quarry: files, folders (walked recursively, with `include` and
 * `exclude` globs), bytes, or the output of a quarry workflow, partitioned into typed elements and
 * given as `Document`s per page (default), per file, per element or per chunk. Metadata follows
 * LlamaIndex's habits, `file_path`, `file_name` and `page_label`, beside quarry's own, flat
 * (`filename`, `filetype`, `page_number`, `languages`; per element also `element_id`, `type`,
 * `text_as_html`, ...); only `file_name` and `page_label` are shown to the embedding model and the
 * LLM. A document that fails is skipped and reported by default.
 *
 * @example
 * ```ts
 * const pages = await new QuarryReader().loadData('report.pdf');
 * const chunks = await new QuarryReader({ include: ['*.pdf', '*.docx'], mode: 'chunks' }).loadData('docs/');
 * const fromWorkflow = await new QuarryReader().loadData({ engine, plan, options: { source } });
 * ```
 */
export class QuarryReader implements BaseReader<Document> {
  /** The documents the last read skipped (with `onFailure: 'skip'`), each with its `source` and `error`. */
  readonly failures: DocumentElements[] = [];

  constructor(private readonly options: QuarryReaderOptions = {}) {}

  /** Reads every document at once. */
  async loadData(input: QuarryReaderInput): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoadData(input)) out.push(doc);
    return out;
  }

  /** The same documents one at a time, a source document's as soon as it is read: memory holds one source document. */
  async *lazyLoadData(input: QuarryReaderInput): AsyncGenerator<Document> {
    this.failures.length = 0;
    const { mode, onFailure, ...files } = this.options;
    const from: DocumentsInput = isFileInput(input) ? { ...files, paths: input } : input;
    for await (const part of documentParts(from, { ...(mode ? { mode } : {}), ...(onFailure ? { onFailure } : {}), failures: this.failures })) {
      const metadata = llamaindexMetadata(part);
      const hidden = hiddenKeys(metadata);
      yield new Document({ id_: part.id, text: part.text, metadata, excludedEmbedMetadataKeys: hidden, excludedLlmMetadataKeys: hidden });
    }
  }
}

// LlamaIndex's own keys (`file_path`, `file_name`, `page_label`, as its directory reader and PDF reader write them) beside quarry's.
function llamaindexMetadata(part: DocumentPart): Record<string, unknown> {
  const fileName = typeof part.metadata.filename === 'string' ? part.metadata.filename : basename(part.source);
  return {
    ...part.metadata,
    source: part.source,
    ...(part.path === undefined ? {} : { file_path: part.path }),
    file_name: fileName,
    ...(part.pageNumber === undefined ? {} : { page_label: String(part.pageNumber) }),
  };
}

function isFileInput(v: QuarryReaderInput): v is FileInput | readonly FileInput[] {
  return typeof v === 'string' || v instanceof Uint8Array || Array.isArray(v) || 'bytes' in v;
}

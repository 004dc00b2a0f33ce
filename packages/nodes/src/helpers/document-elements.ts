import { basename } from 'node:path';
import { errorMessage, isQuarryError, type Engine, type Plan, type StreamedDocument, type StreamOptions } from '@quarry/core';
import { chunk, type ChunkerName, type ChunkSettingsOf } from './chunk.js';
import { documentFiles, type FileInput, type FolderOptions } from './document-files.js';
import { partition, type PartitionOptions } from './partition.js';

/** A chunker and its settings, as a workflow's chunk node has them. */
export type ChunkStep = { [S in ChunkerName]: { subtype: S; settings?: ChunkSettingsOf[S] } }[ChunkerName];

/**
 * Files to partition (and chunk), one after the other, in this process: paths of files or folders
 * (walked with `include`, `exclude` and `recursive`), or bytes.
 */
export interface FileDocumentsInput extends FolderOptions {
  paths: FileInput | readonly FileInput[];
  partition?: PartitionOptions;
  /** Chunk each file's elements; absent, the elements are given as partitioned. */
  chunk?: ChunkStep;
}

/** A quarry workflow whose documents are streamed ({@link Engine.stream}). */
export interface WorkflowDocumentsInput {
  engine: Engine;
  plan: Plan;
  options: StreamOptions;
}

/** Where {@link documentElements} takes its documents from. */
export type DocumentsInput = FileDocumentsInput | WorkflowDocumentsInput;

/** One document's elements, or its failure, and where it came from (the path, or the workflow's record id). */
export interface DocumentElements extends StreamedDocument {
  source: string;
  /** The file's path, when the document was read from one (not bytes, not a workflow). */
  path?: string;
}

/**
 * Each document's elements, one document at a time: files partitioned (and chunked) with the
 * one-call helpers, or the output of a workflow's every node. A document that fails is an item
 * with `error` and the rest go on, as in {@link Engine.stream}; leaving the loop early stops the work.
 *
 * @example
 * ```ts
 * for await (const doc of documentElements({ paths: ['a.pdf', 'b.docx'], chunk: { subtype: 'chunk_by_title' } })) {
 *   console.log(doc.source, doc.error?.code ?? doc.elements.length);
 * }
 * ```
 */
export async function* documentElements(input: DocumentsInput): AsyncGenerator<DocumentElements, void, undefined> {
  if ('engine' in input) {
    for await (const doc of input.engine.stream(input.plan, input.options)) yield { ...doc, source: doc.record_id };
    return;
  }
  const inputs: readonly FileInput[] = Array.isArray(input.paths) ? input.paths : [input.paths as FileInput];
  for await (const item of documentFiles(inputs, input)) {
    const filename = input.partition?.filename ?? item.filename ?? (typeof item.input === 'string' ? basename(item.input) : 'document');
    const from = { source: item.source, record_id: item.source, filename, ...(typeof item.input === 'string' ? { path: item.input } : {}) };
    let node = 'partition';
    try {
      let elements = await partition(item.input, { ...input.partition, ...(item.filename && !input.partition?.filename ? { filename: item.filename } : {}) });
      node = 'chunk';
      if (input.chunk) elements = await chunk(elements, input.chunk.subtype, input.chunk.settings);
      yield { ...from, elements };
    } catch (e) {
      yield { ...from, elements: [], error: { node, code: isQuarryError(e) ? e.code : 'NODE_FAILED', message: errorMessage(e) } };
    }
  }
}

import { basename } from 'node:path';
import { errorMessage, isQuarryError, QuarryError, type Element, type Engine, type Plan, type StreamedDocument, type StreamOptions } from '@quarry/core';
import { chunk, type ChunkerName, type ChunkSettingsOf } from './chunk.js';
import { partition, type PartitionOptions } from './partition.js';

/** A chunker and its settings, as a workflow's chunk node has them. */
export type ChunkStep = { [S in ChunkerName]: { subtype: S; settings?: ChunkSettingsOf[S] } }[ChunkerName];

/** Files to partition (and chunk), one after the other, in this process. */
export interface FileDocumentsInput {
  paths: string | readonly string[];
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
  const paths = typeof input.paths === 'string' ? [input.paths] : input.paths;
  for (const path of paths) {
    const filename = input.partition?.filename ?? basename(path);
    let node = 'partition';
    try {
      let elements = await partition(path, input.partition);
      node = 'chunk';
      if (input.chunk) elements = await chunk(elements, input.chunk.subtype, input.chunk.settings);
      yield { source: path, record_id: path, filename, elements };
    } catch (e) {
      yield { source: path, record_id: path, filename, elements: [], error: { node, code: isQuarryError(e) ? e.code : 'NODE_FAILED', message: errorMessage(e) } };
    }
  }
}

/** An element with text, and where its document came from. */
export interface SourcedElement {
  element: Element;
  source: string;
}

/**
 * Every element with text of every document, for another framework's loader: a document that
 * failed throws a `QuarryError` with its code or, when `onFailure` is given, is handed to it and
 * the rest go on.
 */
export async function* textElements(input: DocumentsInput, onFailure?: (failed: DocumentElements) => void): AsyncGenerator<SourcedElement, void, undefined> {
  for await (const doc of documentElements(input)) {
    if (doc.error) {
      if (!onFailure) throw QuarryError.from(doc.error.code, `${doc.source} failed in ${doc.error.node}: ${doc.error.message}`, { details: { source: doc.source, node: doc.error.node } });
      onFailure(doc);
      continue;
    }
    for (const element of doc.elements) if (element.text.trim() !== '') yield { element, source: doc.source };
  }
}

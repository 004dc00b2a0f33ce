import type { Element, ElementMetadata } from '@quarry/core';
import { codecFor } from './code-points.js';
import { consolidateMetadata, origElementsFor } from './consolidate-metadata.js';
import type { ChunkContext } from './context.js';
import type { PreChunkView } from './pre-chunk.js';
import { randomUuid } from './uuid.js';

/**
 * Appends to `out` the `CompositeElement`s of a pre-chunk other than a lone table (the library's
 * `_Chunker`): one chunk when the text fits, else the split pieces, the second and later ones marked
 * `is_continuation`. A pre-chunk without text (only page breaks, say) gives no chunk.
 */
export function appendCompositeChunks(preChunk: PreChunkView, ctx: ChunkContext, out: Element[]): void {
  const text = preChunk.text;
  if (!text) return;
  const { source, from, to } = preChunk;
  const metadata = consolidateMetadata(source.elements, from, to);
  if (ctx.opts.include_orig_elements) metadata.orig_elements = origElementsFor(source.elements, from, to);
  if (preChunk.textLength <= ctx.splitter.maxlen) {
    out.push({ element_id: randomUuid(), type: 'CompositeElement', text, metadata });
    return;
  }
  const pieces = splitText(text, preChunk.astral, ctx);
  const continuation = pieces.length > 1 ? continuationOf(metadata) : metadata;
  for (let i = 0; i < pieces.length; i++) {
    out.push({ element_id: randomUuid(), type: 'CompositeElement', text: pieces[i] as string, metadata: i === 0 ? metadata : continuation });
  }
}

/**
 * `{ ...metadata, is_continuation: true }`, copied field by field: V8 took the spread of
 * consolidated metadata through its slow runtime path, which was a fifth of chunk_by_title's time
 * on a PDF with many oversized elements.
 */
function continuationOf(metadata: ElementMetadata): ElementMetadata {
  const out: ElementMetadata = {};
  for (const field in metadata) out[field] = metadata[field];
  out.is_continuation = true;
  return out;
}

/**
 * The splitter's pieces of `text`, cut at code-point positions: text with astral characters is
 * split in its one-unit-per-code-point form (see `code-points.ts`) and the pieces mapped back.
 */
export function splitText(text: string, astral: boolean, ctx: ChunkContext): string[] {
  if (!astral) return ctx.splitter.pieces(text);
  const codec = codecFor([text]);
  return ctx.splitter.pieces(codec.encode(text)).map((piece) => codec.decode(piece));
}

/** The chunks {@link appendCompositeChunks} forms from `preChunk`. */
export function compositeChunks(preChunk: PreChunkView, ctx: ChunkContext): Element[] {
  const out: Element[] = [];
  appendCompositeChunks(preChunk, ctx, out);
  return out;
}

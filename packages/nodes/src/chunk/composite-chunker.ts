import type { Element } from '@quarry/core';
import { codecFor } from './code-points.js';
import { consolidateMetadata, origElementsFor } from './consolidate-metadata.js';
import type { ChunkContext } from './context.js';
import type { PreChunk } from './pre-chunk.js';
import { randomUuid } from '@quarry/core/element';

/**
 * Appends to `out` the `CompositeElement`s of a pre-chunk other than a lone table (the library's
 * `_Chunker`): one chunk when the text fits, else the split pieces, the second and later ones marked
 * `is_continuation`. A pre-chunk without text (only page breaks, say) gives no chunk.
 */
export function appendCompositeChunks(preChunk: PreChunk, ctx: ChunkContext, out: Element[]): void {
  const text = preChunk.text;
  if (!text) return;
  const metadata = consolidateMetadata(preChunk.elements);
  if (ctx.opts.include_orig_elements) metadata.orig_elements = origElementsFor(preChunk.elements);
  if (preChunk.textLength <= ctx.splitter.maxlen) {
    out.push({ element_id: randomUuid(), type: 'CompositeElement', text, metadata });
    return;
  }
  // Code points and code units agree: no astral characters, no mapping to split on.
  const pieces = preChunk.textLength === text.length ? ctx.splitter.pieces(text) : splitText(text, ctx);
  const continuation = { ...metadata, is_continuation: true };
  for (let i = 0; i < pieces.length; i++) {
    out.push({ element_id: randomUuid(), type: 'CompositeElement', text: pieces[i] as string, metadata: i === 0 ? metadata : continuation });
  }
}

/**
 * The splitter's pieces of `text`, cut at code-point positions: text with astral characters is
 * split in its one-unit-per-code-point form (see `code-points.ts`) and the pieces mapped back.
 */
export function splitText(text: string, ctx: ChunkContext): string[] {
  const codec = codecFor([text]);
  if (codec.identity) return ctx.splitter.pieces(text);
  return ctx.splitter.pieces(codec.encode(text)).map((piece) => codec.decode(piece));
}

/** The chunks {@link appendCompositeChunks} forms from `preChunk`. */
export function compositeChunks(preChunk: PreChunk, ctx: ChunkContext): Element[] {
  const out: Element[] = [];
  appendCompositeChunks(preChunk, ctx, out);
  return out;
}

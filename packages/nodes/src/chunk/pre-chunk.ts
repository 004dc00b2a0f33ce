import type { Element } from '@quarry/core';
import { codePointLength, codePointTail } from './code-points.js';
import { measureText, type MeasuredText } from './measure-text.js';
import type { ChunkingOptions } from './options.js';
import { pyStrip } from './python-text.js';

/** Joins the texts of a chunk's elements. */
export const TEXT_SEPARATOR = '\n\n';
const SEP_LEN = TEXT_SEPARATOR.length;

/** True for `Table` and `TableChunk` (the library's table family). */
export function isTableFamily(el: Element): boolean {
  return el.type === 'Table' || el.type === 'TableChunk';
}

/**
 * An element's contribution to chunk text: whitespace collapsed to single spaces, except a
 * `CodeSnippet`, kept verbatim. `""` for an element without text (it adds no separator).
 */
export function segmentOf(el: Element): string {
  return measureText(el.text, el.type === 'CodeSnippet').segment;
}

/**
 * Length in code points of an overlap prefix and `count` non-empty segments of total length
 * `segmentsLength`, joined by {@link TEXT_SEPARATOR}.
 */
export function joinedLength(overlapPrefix: string, segmentsLength: number, count: number): number {
  if (!overlapPrefix) return segmentsLength + (count > 0 ? (count - 1) * SEP_LEN : 0);
  return segmentsLength + codePointLength(overlapPrefix) + count * SEP_LEN;
}

/**
 * Elements staged to become one chunk (or, for a single oversized element, several split chunks),
 * the library's `PreChunk`. Immutable; its text is joined on first use. Lengths are in code points.
 */
export class PreChunk {
  /** Length of `text`, known without joining it. */
  readonly textLength: number;
  private joined: string | undefined;

  /**
   * @param elements the elements, in order.
   * @param segments their non-empty segments (see {@link segmentOf}), in order.
   * @param overlapPrefix tail of the previous chunk (`overlap_all`), first part of the text.
   * @param segmentsLength the total length of `segments` in code points.
   * @param hasTable whether one of the elements is a table.
   */
  constructor(
    readonly elements: readonly Element[],
    readonly segments: readonly string[],
    readonly overlapPrefix: string,
    readonly segmentsLength: number,
    readonly hasTable: boolean,
  ) {
    this.textLength = joinedLength(overlapPrefix, segmentsLength, segments.length);
  }

  /**
   * A pre-chunk of `elements`, their segments computed here.
   *
   * @example
   * ```ts
   * PreChunk.of([title, paragraph]).text; // 'Title\n\nParagraph text'
   * ```
   */
  static of(elements: readonly Element[], overlapPrefix = ''): PreChunk {
    const segments = elements.map(segmentOf).filter((s) => s !== '');
    const segmentsLength = segments.reduce((sum, s) => sum + codePointLength(s), 0);
    return new PreChunk(elements, segments, overlapPrefix, segmentsLength, elements.some(isTableFamily));
  }

  /** The chunk text: overlap prefix and segments joined by a blank line. */
  get text(): string {
    if (this.joined === undefined) {
      // Concatenation, not `Array.join`: the chunk text then shares the segments' characters.
      let text = this.overlapPrefix;
      for (const segment of this.segments) text = text ? text + TEXT_SEPARATOR + segment : segment;
      this.joined = text;
    }
    return this.joined;
  }

  /**
   * The part of this chunk's text repeated before the next chunk with `overlap_all`: its last
   * `overlap` code points, stripped.
   */
  overlapTail(overlap: number): string {
    return overlap > 0 ? pyStrip(codePointTail(this.text, overlap)) : '';
  }

  /** This pre-chunk followed by `other`; only the first overlap prefix is kept. */
  combine(other: PreChunk): PreChunk {
    return new PreChunk(
      [...this.elements, ...other.elements],
      [...this.segments, ...other.segments],
      this.overlapPrefix,
      this.segmentsLength + other.segmentsLength,
      this.hasTable || other.hasTable,
    );
  }

  /**
   * The library's `PreChunk.can_combine` (by_title combining): this one is shorter than
   * `combine_text_under_n_chars`, this one followed by `other` (whose overlap prefix is dropped)
   * fits `max_characters`, and, with `isolate_table`, neither holds a table.
   */
  canCombine(other: PreChunk, opts: ChunkingOptions): boolean {
    if (opts.isolate_table && (this.hasTable || other.hasTable)) return false;
    if (this.textLength >= opts.combine_text_under_n_chars) return false;
    const combined = joinedLength(this.overlapPrefix, this.segmentsLength + other.segmentsLength, this.segments.length + other.segments.length);
    return combined <= opts.max_characters;
  }
}

/** Decides whether an element starts a new semantic unit (section, page, topic). May keep state. */
export type BoundaryPredicate = (el: Element) => boolean;

/** Every `Title` starts a section. */
export function isTitle(el: Element): boolean {
  return el.type === 'Title';
}

/**
 * A predicate that fires on every page change. The first element sets the current page (`1` when
 * it has none) and never fires; an element without `page_number` stays on the current page; any
 * other page number, even a lower one, fires and becomes current. One instance per element stream.
 */
export function onNextPage(): BoundaryPredicate {
  let current = 1;
  let first = true;
  return (el) => {
    const page = el.metadata.page_number;
    if (first) {
      current = page || 1;
      first = false;
      return false;
    }
    if (page === undefined || page === null || page === current) return false;
    current = page;
    return true;
  };
}

// Accumulates consecutive elements while they fit (the library's `PreChunkBuilder`). The size
// checks measure raw element text, before whitespace is collapsed, as the library does.
class PreChunkBuilder {
  private elements: Element[] = [];
  private segments: string[] = [];
  private overlapPrefix = '';
  private segmentsLength = 0;
  private hasTable = false;
  // Raw lengths for the size checks: the overlap prefix and each element with text count.
  private rawLength = 0;
  private rawCount = 0;

  constructor(private readonly opts: ChunkingOptions) {}

  // Whether `el`, whose raw text is `length` code points long, may join.
  willFit(el: Element, length: number): boolean {
    const { opts } = this;
    const empty = this.elements.length === 0;
    if (opts.isolate_table) {
      if (isTableFamily(el)) return empty;
      if (this.hasTable) return false;
    }
    if (empty) return true;
    const currentLength = this.rawLength + (this.rawCount > 0 ? (this.rawCount - 1) * SEP_LEN : 0);
    if (currentLength > opts.new_after_n_chars) return false;
    return opts.max_characters - this.rawLength - SEP_LEN * this.rawCount >= length;
  }

  // Adds `el`, whose text is `measured`.
  add(el: Element, { segment, length, segmentLength }: MeasuredText): void {
    const table = isTableFamily(el);
    // A table isolated in a pre-chunk of its own takes no overlap prefix.
    if (table && this.opts.isolate_table && this.elements.length === 0) this.start('');
    this.elements.push(el);
    if (segment) {
      this.segments.push(segment);
      this.segmentsLength += segmentLength;
    }
    if (table) this.hasTable = true;
    if (length > 0) {
      this.rawCount++;
      this.rawLength += length;
    }
  }

  // The pre-chunk accumulated so far (undefined when empty); the next one starts after it.
  flush(): PreChunk | undefined {
    const { elements, opts } = this;
    if (elements.length === 0) return undefined;
    const preChunk = new PreChunk(elements, this.segments, this.overlapPrefix, this.segmentsLength, this.hasTable);
    const tableOnly = opts.isolate_table && elements.length === 1 && this.hasTable;
    this.start(tableOnly || !opts.overlap_all ? '' : preChunk.overlapTail(opts.overlap));
    return preChunk;
  }

  private start(overlapPrefix: string): void {
    this.elements = [];
    this.segments = [];
    this.overlapPrefix = overlapPrefix;
    this.segmentsLength = 0;
    this.hasTable = false;
    this.rawLength = overlapPrefix ? codePointLength(overlapPrefix) : 0;
    this.rawCount = overlapPrefix ? 1 : 0;
  }
}

/**
 * Groups elements into pre-chunks (the library's `PreChunker`): an element joins the current
 * pre-chunk unless a boundary predicate fires or it does not fit (soft maximum exceeded, hard
 * maximum counting the `"\n\n"` separators, or table isolation). Every predicate sees every
 * element.
 */
export function preChunks(elements: readonly Element[], opts: ChunkingOptions, predicates: readonly BoundaryPredicate[] = []): PreChunk[] {
  const out: PreChunk[] = [];
  const builder = new PreChunkBuilder(opts);
  for (const el of elements) {
    let boundary = false;
    for (const predicate of predicates) if (predicate(el)) boundary = true;
    const measured = measureText(el.text, el.type === 'CodeSnippet');
    if (boundary || !builder.willFit(el, measured.length)) {
      const done = builder.flush();
      if (done) out.push(done);
    }
    builder.add(el, measured);
  }
  const last = builder.flush();
  if (last) out.push(last);
  return out;
}

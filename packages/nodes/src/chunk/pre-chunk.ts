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
 * Elements staged to become one chunk (or, for a single oversized element, several split chunks),
 * the library's `PreChunk`. Immutable. Lengths are in code points.
 */
export class PreChunk {
  /** Length of `text`. */
  readonly textLength: number;

  /**
   * @param elements the elements, in order: a list of the pre-chunk's own (its chunks keep it as
   *   their `orig_elements`).
   * @param body their non-empty segments (see {@link segmentOf}) joined by {@link TEXT_SEPARATOR}.
   * @param segmentCount how many segments `body` joins.
   * @param bodyLength the length of `body` in code points.
   * @param overlapPrefix tail of the previous chunk (`overlap_all`), first part of the text.
   * @param hasTable whether one of the elements is a table.
   */
  constructor(
    readonly elements: Element[],
    readonly body: string,
    readonly segmentCount: number,
    readonly bodyLength: number,
    readonly overlapPrefix: string,
    readonly hasTable: boolean,
  ) {
    this.textLength = withPrefixLength(overlapPrefix, bodyLength, segmentCount);
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
    const body = segments.join(TEXT_SEPARATOR);
    return new PreChunk(elements.slice(), body, segments.length, codePointLength(body), overlapPrefix, elements.some(isTableFamily));
  }

  /** The chunk text: overlap prefix and body joined by a blank line. */
  get text(): string {
    return joinParts(this.overlapPrefix, this.body);
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
      this.elements.concat(other.elements),
      joinParts(this.body, other.body),
      this.segmentCount + other.segmentCount,
      joinedBodyLength(this, other),
      this.overlapPrefix,
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
    const combined = withPrefixLength(this.overlapPrefix, joinedBodyLength(this, other), this.segmentCount + other.segmentCount);
    return combined <= opts.max_characters;
  }
}

// `a` and `b` joined by TEXT_SEPARATOR, or the one that is not empty. Concatenation, not
// `Array.join`: the chunk text then shares the segments' characters instead of copying them.
function joinParts(a: string, b: string): string {
  if (!a) return b;
  return b ? a + TEXT_SEPARATOR + b : a;
}

// Length of the body of `a` combined with `b`.
function joinedBodyLength(a: PreChunk, b: PreChunk): number {
  return a.bodyLength + b.bodyLength + (a.segmentCount > 0 && b.segmentCount > 0 ? SEP_LEN : 0);
}

// Length of a pre-chunk text: the overlap prefix, if any, and a body of `segmentCount` segments.
function withPrefixLength(overlapPrefix: string, bodyLength: number, segmentCount: number): number {
  if (!overlapPrefix) return bodyLength;
  return codePointLength(overlapPrefix) + (segmentCount > 0 ? SEP_LEN + bodyLength : 0);
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
  // The elements gathered so far: the first `elementCount` entries of a list reused from one
  // pre-chunk to the next, each pre-chunk getting an exact-size copy (a list grown by `push`
  // holds room for 17).
  private readonly elements: Element[] = [];
  private elementCount = 0;
  private body = '';
  private segmentCount = 0;
  private bodyLength = 0;
  private overlapPrefix = '';
  private hasTable = false;
  // Raw lengths for the size checks: the overlap prefix and each element with text count.
  private rawLength = 0;
  private rawCount = 0;

  constructor(private readonly opts: ChunkingOptions) {}

  // Whether `el`, whose raw text is `length` code points long, may join.
  willFit(el: Element, length: number): boolean {
    const { opts } = this;
    const empty = this.elementCount === 0;
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
    if (table && this.opts.isolate_table && this.elementCount === 0) this.start('');
    this.elements[this.elementCount++] = el;
    if (segment) {
      this.bodyLength += this.segmentCount > 0 ? SEP_LEN + segmentLength : segmentLength;
      this.body = joinParts(this.body, segment);
      this.segmentCount++;
    }
    if (table) this.hasTable = true;
    if (length > 0) {
      this.rawCount++;
      this.rawLength += length;
    }
  }

  // The pre-chunk accumulated so far (undefined when empty); the next one starts after it.
  flush(): PreChunk | undefined {
    const { elementCount, opts } = this;
    if (elementCount === 0) return undefined;
    const elements = this.elements.slice(0, elementCount);
    const preChunk = new PreChunk(elements, this.body, this.segmentCount, this.bodyLength, this.overlapPrefix, this.hasTable);
    const tableOnly = opts.isolate_table && elementCount === 1 && this.hasTable;
    this.start(tableOnly || !opts.overlap_all ? '' : preChunk.overlapTail(opts.overlap));
    return preChunk;
  }

  private start(overlapPrefix: string): void {
    this.elementCount = 0;
    this.body = '';
    this.segmentCount = 0;
    this.bodyLength = 0;
    this.overlapPrefix = overlapPrefix;
    this.hasTable = false;
    this.rawLength = overlapPrefix ? codePointLength(overlapPrefix) : 0;
    this.rawCount = overlapPrefix ? 1 : 0;
  }
}

/**
 * Groups elements into pre-chunks (the library's `PreChunker`): an element joins the current
 * pre-chunk unless a boundary predicate fires or it does not fit (soft maximum exceeded, hard
 * maximum counting the `"\n\n"` separators, or table isolation). Every predicate sees every
 * element. Pre-chunks are handed over one at a time, so that each can become chunks before the
 * next is gathered.
 */
export function* preChunks(elements: readonly Element[], opts: ChunkingOptions, predicates: readonly BoundaryPredicate[] = []): Generator<PreChunk> {
  const builder = new PreChunkBuilder(opts);
  // An index loop: `for...of` here allocated an iterator result per element.
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i] as Element;
    let boundary = false;
    for (const predicate of predicates) if (predicate(el)) boundary = true;
    const measured = measureText(el.text, el.type === 'CodeSnippet');
    if (boundary || !builder.willFit(el, measured.length)) {
      const done = builder.flush();
      if (done) yield done;
    }
    builder.add(el, measured);
  }
  const last = builder.flush();
  if (last) yield last;
}

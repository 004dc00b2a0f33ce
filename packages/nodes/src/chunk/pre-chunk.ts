import type { Element } from '@quarry/core';
import type { ChunkingOptions } from './options.js';
import { collapseWhitespace, pyStrip } from './python-text.js';

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
  if (!el.text) return '';
  return el.type === 'CodeSnippet' ? el.text : collapseWhitespace(el.text);
}

function segmentsOf(elements: readonly Element[]): string[] {
  const out: string[] = [];
  for (const el of elements) {
    const s = segmentOf(el);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Elements staged to become one chunk (or, for a single oversized element, several split chunks).
 * Immutable; its text is built once, on first use.
 */
export class PreChunk {
  /** Length of `text` without building it. */
  readonly textLength: number;
  /** True when one of the elements is a table. */
  readonly hasTable: boolean;
  /** Total length of the element segments (the text without overlap prefix and separators). */
  readonly segmentsLength: number;
  /** Number of element segments. */
  readonly segmentCount: number;
  private joined: string | undefined;

  /**
   * @param elements the elements, in order.
   * @param overlapPrefix tail of the previous chunk (`overlap_all`), first segment of the text.
   * @param segments the elements' non-empty segments, when already known.
   */
  constructor(
    readonly elements: readonly Element[],
    readonly overlapPrefix: string,
    readonly segments: readonly string[] = segmentsOf(elements),
  ) {
    let n = 0;
    for (const s of segments) n += s.length;
    this.segmentsLength = n;
    this.segmentCount = segments.length;
    this.textLength = joinedLength(overlapPrefix, n, segments.length);
    let hasTable = false;
    for (const el of elements) if (isTableFamily(el)) hasTable = true;
    this.hasTable = hasTable;
  }

  /** The chunk text: overlap prefix and element segments joined by a blank line. */
  get text(): string {
    if (this.joined === undefined) {
      // Concatenation (not Array.join) lets V8 keep the chunk as a rope over the element texts
      // instead of copying every character once more.
      let text = this.overlapPrefix;
      for (const segment of this.segments) text = text ? text + TEXT_SEPARATOR + segment : segment;
      this.joined = text;
    }
    return this.joined;
  }

  /** The part of this chunk's text repeated before the next chunk with `overlap_all`. */
  overlapTail(overlap: number): string {
    return overlap ? pyStrip(this.text.slice(-overlap)) : '';
  }

  /** This pre-chunk followed by `other`; only the first overlap prefix is kept. */
  combine(other: PreChunk): PreChunk {
    return new PreChunk([...this.elements, ...other.elements], this.overlapPrefix, [...this.segments, ...other.segments]);
  }

  /**
   * True when `other` may be merged into this one (by_title combining): this one is shorter than
   * `combine_text_under_n_chars`, the result fits `max_characters`, and (with `isolate_table`)
   * neither holds a table.
   */
  canCombine(other: PreChunk, opts: ChunkingOptions): boolean {
    return canCombine(this, other, opts);
  }
}

/** What combining needs to know about a pre-chunk, or about a run of pre-chunks to be merged. */
export interface CombineCandidate {
  readonly overlapPrefix: string;
  readonly segmentCount: number;
  readonly segmentsLength: number;
  readonly textLength: number;
  readonly hasTable: boolean;
}

/** Length of an overlap prefix and `count` segments of total length `segmentsLength`, joined. */
export function joinedLength(overlapPrefix: string, segmentsLength: number, count: number): number {
  const parts = count + (overlapPrefix ? 1 : 0);
  return segmentsLength + overlapPrefix.length + (parts > 0 ? (parts - 1) * SEP_LEN : 0);
}

/**
 * The library's `PreChunk.can_combine`: `acc` is shorter than `combine_text_under_n_chars`, `acc`
 * followed by `next` (whose overlap prefix is dropped) fits `max_characters`, and, with
 * `isolate_table`, neither holds a table.
 */
export function canCombine(acc: CombineCandidate, next: CombineCandidate, opts: ChunkingOptions): boolean {
  if (opts.isolate_table && (acc.hasTable || next.hasTable)) return false;
  if (acc.textLength >= opts.combine_text_under_n_chars) return false;
  const combinedLength = joinedLength(acc.overlapPrefix, acc.segmentsLength + next.segmentsLength, acc.segmentCount + next.segmentCount);
  return combinedLength <= opts.max_characters;
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

// Accumulates a run of consecutive elements while they fit, as indexes into the element list;
// sizes use raw element text, as the library does. A flushed run becomes one array slice.
class PreChunkBuilder {
  private start = 0;
  private end = 0;
  private overlapPrefix = '';
  private segmentCount = 0;
  private textLen = 0;
  private holdsTable = false;
  // The non-empty segments of the run: the first `segmentsHeld` of this list, copied out at their
  // final size when the run is flushed (the list itself is reused, never shrunk).
  private readonly segments: string[] = [];
  private segmentsHeld = 0;

  constructor(
    private readonly opts: ChunkingOptions,
    private readonly elements: readonly Element[],
    private readonly allSegments: readonly string[],
  ) {}

  willFit(el: Element): boolean {
    const { opts } = this;
    const empty = this.end === this.start;
    if (opts.isolate_table) {
      if (isTableFamily(el)) return empty;
      if (this.holdsTable) return false;
    }
    if (empty) return true;
    const currentLength = this.textLen + (this.segmentCount > 0 ? (this.segmentCount - 1) * SEP_LEN : 0);
    if (currentLength > opts.new_after_n_chars) return false;
    return opts.max_characters - this.textLen - SEP_LEN * this.segmentCount >= el.text.length;
  }

  // Adds elements[i], the next element after the run.
  add(i: number): void {
    const el = this.elements[i] as Element;
    const table = isTableFamily(el);
    if (table && this.opts.isolate_table && this.end === this.start) this.reset('', i);
    this.end = i + 1;
    const segment = this.allSegments[i] as string;
    if (segment) this.segments[this.segmentsHeld++] = segment;
    if (table) this.holdsTable = true;
    if (el.text) {
      this.segmentCount++;
      this.textLen += el.text.length;
    }
  }

  flush(): PreChunk | undefined {
    const { start, end } = this;
    if (end === start) return undefined;
    const elements = this.elements.slice(start, end);
    const preChunk = new PreChunk(elements, this.overlapPrefix, this.segments.slice(0, this.segmentsHeld));
    const interChunkOverlap = this.opts.overlap_all ? this.opts.overlap : 0;
    const tableOnly = this.opts.isolate_table && elements.length === 1 && isTableFamily(elements[0] as Element);
    this.reset(tableOnly ? '' : preChunk.overlapTail(interChunkOverlap), end);
    return preChunk;
  }

  private reset(overlapPrefix: string, start: number): void {
    this.overlapPrefix = overlapPrefix;
    this.start = start;
    this.end = start;
    this.holdsTable = false;
    this.segmentCount = overlapPrefix ? 1 : 0;
    this.textLen = overlapPrefix.length;
    this.segmentsHeld = 0;
  }
}

/**
 * Groups elements into pre-chunks (the library's `PreChunker`): an element joins the current
 * pre-chunk unless a boundary predicate fires or it does not fit (soft maximum exceeded, hard
 * maximum counting the `"\n\n"` separators, or table isolation). Every predicate sees every element.
 * Each pre-chunk is handed to `emit` as soon as it is complete.
 *
 * @param segments `segmentOf` of each element, in order.
 */
export function forEachPreChunk(
  elements: readonly Element[],
  opts: ChunkingOptions,
  predicates: readonly BoundaryPredicate[],
  segments: readonly string[],
  emit: (preChunk: PreChunk) => void,
): void {
  const builder = new PreChunkBuilder(opts, elements, segments);
  const n = elements.length;
  const np = predicates.length;
  for (let i = 0; i < n; i++) {
    const el = elements[i] as Element;
    let boundary = false;
    for (let p = 0; p < np; p++) if ((predicates[p] as BoundaryPredicate)(el)) boundary = true;
    if (boundary || !builder.willFit(el)) {
      const done = builder.flush();
      if (done) emit(done);
    }
    builder.add(i);
  }
  const last = builder.flush();
  if (last) emit(last);
}

/**
 * The pre-chunks of `elements` (see {@link forEachPreChunk}), in order.
 *
 * @param segments `segmentOf` of each element, in order, when the caller has them already.
 */
export function* preChunks(
  elements: Iterable<Element>,
  opts: ChunkingOptions,
  predicates: readonly BoundaryPredicate[] = [],
  segments?: readonly string[],
): Generator<PreChunk> {
  const list: readonly Element[] = Array.isArray(elements) ? elements : [...elements];
  const all: PreChunk[] = [];
  forEachPreChunk(list, opts, predicates, segments ?? list.map(segmentOf), (pc) => all.push(pc));
  yield* all;
}

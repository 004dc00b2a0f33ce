import type { Element } from '@quarry/core';
import { codePointLength, codePointTail, surrogatePairs } from './code-points.js';
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

/**
 * The lists a pre-chunk is a range of: the elements, and each element's segment (`""` for an
 * element without text). The pre-chunks of one run share their source, so forming one copies
 * nothing, and consecutive ones merge into a wider range.
 */
export interface PreChunkSource {
  readonly elements: readonly Element[];
  /** `segmentOf` of each element. */
  readonly segments: readonly string[];
}

/**
 * What forming chunks reads from a pre-chunk: a {@link PreChunk}, or the run pre-chunking hands
 * over, which is valid only during the sink's `add` call (see {@link PreChunkSink}).
 */
export interface PreChunkView {
  /** The lists this pre-chunk is a range of. */
  readonly source: PreChunkSource;
  /** Index of its first element in `source`. */
  readonly from: number;
  /** Index after its last element. */
  readonly to: number;
  /** Tail of the previous chunk (`overlap_all`), first segment of the text. */
  readonly overlapPrefix: string;
  /** Length of `text` in code points, without building it. */
  readonly textLength: number;
  /** True when the text holds astral characters (surrogate pairs): code points and units differ. */
  readonly astral: boolean;
  /** Number of elements. */
  readonly elementCount: number;
  /** The chunk text: overlap prefix and element segments joined by a blank line. */
  readonly text: string;
  /** An immutable pre-chunk with the same content, to keep past the sink's `add` call. */
  keep(): PreChunk;
}

// The overlap prefix and the non-empty segments of source[from, to), joined. Concatenation (not
// Array.join) lets V8 keep the chunk as a rope over the element texts instead of copying every
// character once more.
function joinRange(source: PreChunkSource, from: number, to: number, overlapPrefix: string): string {
  const { segments } = source;
  let text = overlapPrefix;
  for (let i = from; i < to; i++) {
    const segment = segments[i] as string;
    if (segment) text = text ? text + TEXT_SEPARATOR + segment : segment;
  }
  return text;
}

// The last `overlap` code points of `text`, stripped (see PreChunk.overlapTail).
function overlapTailOf(text: string, astral: boolean, overlap: number): string {
  if (!overlap) return '';
  return pyStrip(astral ? codePointTail(text, overlap) : text.slice(-overlap));
}

/**
 * Elements staged to become one chunk (or, for a single oversized element, several split chunks):
 * the elements `[from, to)` of its source. Immutable; its text is built once, on first use.
 * Lengths are in code points.
 */
export class PreChunk implements PreChunkView {
  /** Length of `text` without building it. */
  readonly textLength: number;
  /** True when one of the elements is a table. */
  readonly hasTable: boolean;
  /** True when the text holds astral characters (surrogate pairs): code points and units differ. */
  readonly astral: boolean;
  /** Total length of the element segments (the text without overlap prefix and separators). */
  readonly segmentsLength: number;
  /** Number of non-empty element segments. */
  readonly segmentCount: number;
  private joined: string | undefined;
  private elementList: readonly Element[] | undefined;

  /**
   * A pre-chunk of `elements` in full, their segments computed here (see {@link segmentOf}).
   *
   * @example
   * ```ts
   * PreChunk.of([title, paragraph]).text; // 'Title\n\nParagraph text'
   * ```
   */
  static of(elements: readonly Element[], overlapPrefix = ''): PreChunk {
    return new PreChunk({ elements, segments: elements.map(segmentOf) }, 0, elements.length, overlapPrefix);
  }

  /**
   * @param source the lists this pre-chunk is a range of.
   * @param from index of its first element in `source`.
   * @param to index after its last element.
   * @param overlapPrefix tail of the previous chunk (`overlap_all`), first segment of the text.
   * @param segmentsLength the total length of its segments, in code points, when already known.
   * @param segmentCount the number of its non-empty segments, when already known.
   * @param hasTable whether one of the elements is a table, when already known.
   * @param astral whether the segments hold surrogate pairs, when already known.
   */
  constructor(
    readonly source: PreChunkSource,
    readonly from: number,
    readonly to: number,
    readonly overlapPrefix: string,
    segmentsLength?: number,
    segmentCount?: number,
    hasTable?: boolean,
    astral?: boolean,
  ) {
    if (segmentsLength === undefined || segmentCount === undefined || hasTable === undefined || astral === undefined) {
      let units = 0;
      let pairs = 0;
      let count = 0;
      let table = false;
      for (let i = from; i < to; i++) {
        const s = source.segments[i] as string;
        if (s) {
          units += s.length;
          pairs += surrogatePairs(s);
          count++;
        }
        if (isTableFamily(source.elements[i] as Element)) table = true;
      }
      segmentsLength ??= units - pairs;
      segmentCount ??= count;
      hasTable ??= table;
      astral ??= pairs > 0;
    }
    this.segmentsLength = segmentsLength;
    this.segmentCount = segmentCount;
    this.textLength = joinedLength(overlapPrefix, segmentsLength, segmentCount);
    this.hasTable = hasTable;
    this.astral = astral || (overlapPrefix !== '' && surrogatePairs(overlapPrefix) > 0);
  }

  /** Number of elements. */
  get elementCount(): number {
    return this.to - this.from;
  }

  /** The elements, as a list (made on first use unless the pre-chunk spans its whole source). */
  get elements(): readonly Element[] {
    const all = this.source.elements;
    if (this.from === 0 && this.to === all.length) return all;
    return (this.elementList ??= copyRange(all, this.from, this.to));
  }

  /** The non-empty element segments, in order. */
  get segments(): string[] {
    const out: string[] = [];
    for (let i = this.from; i < this.to; i++) {
      const s = this.source.segments[i] as string;
      if (s) out.push(s);
    }
    return out;
  }

  /** The chunk text: overlap prefix and element segments joined by a blank line. */
  get text(): string {
    return (this.joined ??= joinRange(this.source, this.from, this.to, this.overlapPrefix));
  }

  /** This pre-chunk itself (it is immutable). */
  keep(): PreChunk {
    return this;
  }

  /**
   * The part of this chunk's text repeated before the next chunk with `overlap_all`: its last
   * `overlap` code points, stripped.
   */
  overlapTail(overlap: number): string {
    return overlapTailOf(this.text, this.astral, overlap);
  }

  /**
   * This pre-chunk followed by `other`; only the first overlap prefix is kept. The next range of
   * the same source merges without copying.
   */
  combine(other: PreChunk): PreChunk {
    const segmentsLength = this.segmentsLength + other.segmentsLength;
    const segmentCount = this.segmentCount + other.segmentCount;
    const hasTable = this.hasTable || other.hasTable;
    const astral = this.astral || other.astral;
    if (other.source === this.source && other.from === this.to) {
      return new PreChunk(this.source, this.from, other.to, this.overlapPrefix, segmentsLength, segmentCount, hasTable, astral);
    }
    const source: PreChunkSource = {
      elements: [...this.elements, ...other.elements],
      segments: [...this.source.segments.slice(this.from, this.to), ...other.source.segments.slice(other.from, other.to)],
    };
    return new PreChunk(source, 0, source.elements.length, this.overlapPrefix, segmentsLength, segmentCount, hasTable, astral);
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

/**
 * Length in code points of an overlap prefix and `count` segments of total length
 * `segmentsLength`, joined.
 */
export function joinedLength(overlapPrefix: string, segmentsLength: number, count: number): number {
  if (!overlapPrefix) return segmentsLength + (count > 0 ? (count - 1) * SEP_LEN : 0);
  return segmentsLength + codePointLength(overlapPrefix) + count * SEP_LEN;
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

/** Per-element facts pre-chunking reads, gathered in one pass so it need not touch the elements. */
export interface PreChunkTexts {
  /** `segmentOf` of each element. */
  readonly segments: readonly string[];
  /**
   * Length in code points of each element's raw text (0 without text): what the size checks
   * measure.
   */
  readonly lengths: Int32Array;
  /** 1 where the element is a table (see {@link isTableFamily}), else 0. */
  readonly tables: Uint8Array;
  /**
   * Surrogate pairs in each element's text, which its segment keeps (whitespace is never
   * astral); absent when no text has any.
   */
  readonly pairs?: Int32Array | undefined;
}

// Accumulates a run of consecutive elements while they fit, as indexes into the element list;
// sizes use raw element text, as the library does. A complete run is handed to the sink as it is
// (the builder is its PreChunkView), so a sink that forms chunks at once allocates no pre-chunk;
// one that keeps it calls `keep()`.
class PreChunkBuilder implements PreChunkView {
  readonly source: PreChunkSource;
  from = 0;
  to = 0;
  overlapPrefix = '';
  // True when the run's segments or overlap prefix hold surrogate pairs.
  astral = false;
  private segmentsLength = 0;
  // Non-empty segments in the run.
  private segmentCount = 0;
  private hasTable = false;
  // For the size checks: the overlap prefix and each element with text, and their total length.
  private counted = 0;
  private textLen = 0;
  private joined: string | undefined;

  constructor(
    private readonly opts: ChunkingOptions,
    elements: readonly Element[],
    private readonly texts: PreChunkTexts,
  ) {
    this.source = { elements, segments: texts.segments };
  }

  get textLength(): number {
    return joinedLength(this.overlapPrefix, this.segmentsLength, this.segmentCount);
  }

  get elementCount(): number {
    return this.to - this.from;
  }

  get text(): string {
    return (this.joined ??= joinRange(this.source, this.from, this.to, this.overlapPrefix));
  }

  keep(): PreChunk {
    return new PreChunk(this.source, this.from, this.to, this.overlapPrefix, this.segmentsLength, this.segmentCount, this.hasTable, this.astral);
  }

  // Whether elements[i] may join the run.
  willFit(i: number): boolean {
    const { opts, texts } = this;
    const empty = this.to === this.from;
    if (opts.isolate_table) {
      if (texts.tables[i] === 1) return empty;
      if (this.hasTable) return false;
    }
    if (empty) return true;
    const currentLength = this.textLen + (this.counted > 0 ? (this.counted - 1) * SEP_LEN : 0);
    if (currentLength > opts.new_after_n_chars) return false;
    return opts.max_characters - this.textLen - SEP_LEN * this.counted >= (texts.lengths[i] as number);
  }

  // Adds elements[i], the next element after the run.
  add(i: number): void {
    const { texts } = this;
    const table = texts.tables[i] === 1;
    if (table && this.opts.isolate_table && this.to === this.from) this.reset('', i);
    this.to = i + 1;
    const segment = texts.segments[i] as string;
    if (segment) {
      this.segmentCount++;
      const pairs = texts.pairs === undefined ? 0 : (texts.pairs[i] as number);
      this.segmentsLength += segment.length - pairs;
      if (pairs > 0) this.astral = true;
    }
    if (table) this.hasTable = true;
    const length = texts.lengths[i] as number;
    if (length > 0) {
      this.counted++;
      this.textLen += length;
    }
  }

  // Hands the run, when it holds elements, to `sink`, and starts the next one after it.
  flush(sink: PreChunkSink): void {
    const { from, to, opts } = this;
    if (to === from) return;
    sink.add(this);
    const tableOnly = opts.isolate_table && to - from === 1 && this.texts.tables[from] === 1;
    this.reset(tableOnly || !opts.overlap_all ? '' : overlapTailOf(this.text, this.astral, opts.overlap), to);
  }

  private reset(overlapPrefix: string, start: number): void {
    this.overlapPrefix = overlapPrefix;
    this.from = start;
    this.to = start;
    this.hasTable = false;
    this.astral = overlapPrefix !== '' && surrogatePairs(overlapPrefix) > 0;
    this.counted = overlapPrefix ? 1 : 0;
    this.textLen = overlapPrefix ? codePointLength(overlapPrefix) : 0;
    this.segmentsLength = 0;
    this.segmentCount = 0;
    this.joined = undefined;
  }
}

// list[from, to) as a new array. For the few items of a pre-chunk a plain loop is several times
// faster than `Array.prototype.slice`, which the engine leaves as a call for a sub-range.
function copyRange<T>(list: readonly T[], from: number, to: number): T[] {
  const out = new Array<T>(to - from);
  for (let i = from; i < to; i++) out[i - from] = list[i] as T;
  return out;
}

/**
 * Takes pre-chunks as they are completed. An object with a method, not a callback: a run's own
 * closure, new on every run, made the optimised pre-chunking loop bail out on "wrong call target"
 * again and again (its inlined call checks the closure's identity), while a method of a class is
 * the same function for every instance.
 */
export interface PreChunkSink {
  /**
   * Takes the next pre-chunk. It may be valid only during this call: a sink that keeps it keeps
   * `preChunk.keep()`.
   */
  add(preChunk: PreChunkView): void;
}

/**
 * Groups elements into pre-chunks (the library's `PreChunker`): an element joins the current
 * pre-chunk unless a boundary predicate fires or it does not fit (soft maximum exceeded, hard
 * maximum counting the `"\n\n"` separators, or table isolation). Every predicate sees every element.
 * Each pre-chunk is handed to `sink` as soon as it is complete.
 *
 * @param texts the elements' segments, lengths and table flags (gathered by `elementTexts`).
 */
export function forEachPreChunk(
  elements: readonly Element[],
  opts: ChunkingOptions,
  predicates: readonly BoundaryPredicate[],
  texts: PreChunkTexts,
  sink: PreChunkSink,
): void {
  const builder = new PreChunkBuilder(opts, elements, texts);
  const n = elements.length;
  const np = predicates.length;
  // One pass past the last element flushes the last pre-chunk through the same call sites: V8
  // may compile this loop while it runs (OSR) and reuse that code, and calls after the loop, with
  // no type feedback at that moment, would make every later run bail out there.
  for (let i = 0; i <= n; i++) {
    let boundary = i === n;
    if (np > 0 && !boundary) {
      const el = elements[i] as Element;
      for (let p = 0; p < np; p++) if ((predicates[p] as BoundaryPredicate)(el)) boundary = true;
    }
    if (boundary || !builder.willFit(i)) builder.flush(sink);
    if (i < n) builder.add(i);
  }
}

import type { Element } from '@quarry/core';
import type { ChunkingOptions } from './options.js';
import { PreChunk, canCombine, joinedLength, type CombineCandidate, type PreChunkSink } from './pre-chunk.js';

// A run of pre-chunks being merged; the merged PreChunk is built once, when the run ends.
class CombinedRun implements CombineCandidate {
  readonly overlapPrefix: string;
  segmentCount = 0;
  segmentsLength = 0;
  textLength = 0;
  hasTable = false;
  astral = false;
  // Most runs hold one pre-chunk; the list is made for the second.
  private rest: PreChunk[] | undefined;

  constructor(private readonly first: PreChunk) {
    this.overlapPrefix = first.overlapPrefix;
    this.count(first);
  }

  add(pc: PreChunk): void {
    (this.rest ??= []).push(pc);
    this.count(pc);
  }

  merged(): PreChunk {
    const { first, rest } = this;
    if (rest === undefined) return first;
    // Filled at their final sizes: `concat(...spread)` built an argument list and grew the result.
    let count = first.elements.length;
    for (const pc of rest) count += pc.elements.length;
    const elements = new Array<Element>(count);
    const segments = new Array<string>(this.segmentCount);
    let e = appendAll(elements, 0, first.elements);
    let s = appendAll(segments, 0, first.segments);
    for (const pc of rest) {
      e = appendAll(elements, e, pc.elements);
      s = appendAll(segments, s, pc.segments);
    }
    return new PreChunk(elements, this.overlapPrefix, segments, this.segmentsLength, this.hasTable, this.astral);
  }

  private count(pc: PreChunk): void {
    this.segmentCount += pc.segmentCount;
    this.segmentsLength += pc.segmentsLength;
    if (pc.hasTable) this.hasTable = true;
    if (pc.astral) this.astral = true;
    this.textLength = joinedLength(this.overlapPrefix, this.segmentsLength, this.segmentCount);
  }
}

// Copies `items` into `out` from index `at`; returns the index after them.
function appendAll<T>(out: T[], at: number, items: readonly T[]): number {
  for (let i = 0; i < items.length; i++) out[at + i] = items[i] as T;
  return at + items.length;
}

/**
 * Merges small consecutive pre-chunks (the library's `PreChunkCombiner`, by_title only): the
 * accumulated pre-chunk takes the next one while it is shorter than
 * `combine_text_under_n_chars` and the merge fits `max_characters`; tables are never merged when
 * `isolate_table` is on. With the default threshold (= `max_characters`) small sections are merged
 * across titles; `combine_text_under_n_chars: 0` turns merging off.
 *
 * Fed one pre-chunk at a time with `add`, it hands each merged pre-chunk to `sink` once complete;
 * `finish` hands over the last one.
 */
export class PreChunkCombiner implements PreChunkSink {
  private run: CombinedRun | undefined;

  constructor(
    private readonly opts: ChunkingOptions,
    private readonly sink: PreChunkSink,
  ) {}

  /** Takes the next pre-chunk. */
  add(pc: PreChunk): void {
    const { run } = this;
    if (run === undefined) this.run = new CombinedRun(pc);
    else if (canCombine(run, pc, this.opts)) run.add(pc);
    else {
      this.sink.add(run.merged());
      this.run = new CombinedRun(pc);
    }
  }

  /** Emits the pre-chunk still being accumulated, if any. */
  finish(): void {
    if (this.run) this.sink.add(this.run.merged());
    this.run = undefined;
  }
}

/** {@link PreChunkCombiner} over a sequence of pre-chunks: the merged pre-chunks, in order. */
export function* combinePreChunks(preChunks: Iterable<PreChunk>, opts: ChunkingOptions): Generator<PreChunk> {
  const all: PreChunk[] = [];
  const combiner = new PreChunkCombiner(opts, { add: (pc) => all.push(pc) });
  for (const pc of preChunks) combiner.add(pc);
  combiner.finish();
  yield* all;
}

import type { ChunkingOptions } from './options.js';
import { PreChunk, canCombine, joinedLength, type CombineCandidate, type PreChunkSink, type PreChunkView } from './pre-chunk.js';

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
    // Consecutive ranges of one source (as pre-chunking hands them over) merge into one range.
    let to = first.to;
    for (const pc of rest) {
      if (pc.source !== first.source || pc.from !== to) return rest.reduce((acc, next) => acc.combine(next), first);
      to = pc.to;
    }
    return new PreChunk(first.source, first.from, to, this.overlapPrefix, this.segmentsLength, this.segmentCount, this.hasTable, this.astral);
  }

  private count(pc: PreChunk): void {
    this.segmentCount += pc.segmentCount;
    this.segmentsLength += pc.segmentsLength;
    if (pc.hasTable) this.hasTable = true;
    if (pc.astral) this.astral = true;
    this.textLength = joinedLength(this.overlapPrefix, this.segmentsLength, this.segmentCount);
  }
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
  add(next: PreChunkView): void {
    const pc = next.keep();
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

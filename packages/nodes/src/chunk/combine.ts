import type { ChunkingOptions } from './options.js';
import { PreChunk, canCombine, joinedLength, type CombineCandidate } from './pre-chunk.js';

// A run of pre-chunks being merged; the merged PreChunk is built once, when the run ends.
class CombinedRun implements CombineCandidate {
  readonly overlapPrefix: string;
  segmentCount = 0;
  segmentsLength = 0;
  textLength = 0;
  hasTable = false;
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
    const elements = first.elements.concat(...rest.map((pc) => pc.elements));
    const segments = first.segments.concat(...rest.map((pc) => pc.segments));
    return new PreChunk(elements, this.overlapPrefix, segments);
  }

  private count(pc: PreChunk): void {
    this.segmentCount += pc.segmentCount;
    this.segmentsLength += pc.segmentsLength;
    if (pc.hasTable) this.hasTable = true;
    this.textLength = joinedLength(this.overlapPrefix, this.segmentsLength, this.segmentCount);
  }
}

/**
 * Merges small consecutive pre-chunks (the library's `PreChunkCombiner`, by_title only): the
 * accumulated pre-chunk takes the next one while it is shorter than
 * `combine_text_under_n_chars` and the merge fits `max_characters`; tables are never merged when
 * `isolate_table` is on. With the default threshold (= `max_characters`) small sections are merged
 * across titles; `combine_text_under_n_chars: 0` turns merging off.
 */
export function* combinePreChunks(preChunks: Iterable<PreChunk>, opts: ChunkingOptions): Generator<PreChunk> {
  let run: CombinedRun | undefined;
  for (const pc of preChunks) {
    if (run === undefined) run = new CombinedRun(pc);
    else if (canCombine(run, pc, opts)) run.add(pc);
    else {
      yield run.merged();
      run = new CombinedRun(pc);
    }
  }
  if (run) yield run.merged();
}

/**
 * Metrics comparing partition output with a reference output, element by element.
 * All scores are in [0, 1]; 1 is identical.
 */

/** What the comparison needs of an element. */
export interface EvalElement {
  type: string;
  text: string;
  /** `metadata.text_as_html` of a Table. */
  html?: string;
  /** `metadata.page_number`. */
  page?: number;
  /** `metadata.category_depth`: a heading's level, 0 for the top. */
  depth?: number;
}

/** Scores of one document. */
export interface DocumentScores {
  /** F1 of the multiset of word tokens of all text (case-insensitive). */
  text_f1: number;
  text_precision: number;
  text_recall: number;
  /** Of the matched reference elements, the share that appear in the same relative order. */
  order: number;
  /** Of the matched reference elements, the share whose output type is the same. */
  type_agreement: number;
  /** Reference elements that found an output element with the same text (Dice >= 0.5). */
  matched: number;
  expected_elements: number;
  output_elements: number;
  expected_tables: number;
  /** Reference tables matched by an output Table with the same text. */
  tables_found: number;
}

const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-cased word tokens of a text. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

function counts(toks: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of toks) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Token-multiset precision, recall and F1 of `output` against `expected`. */
export function tokenF1(output: string[], expected: string[]): { precision: number; recall: number; f1: number } {
  if (!output.length && !expected.length) return { precision: 1, recall: 1, f1: 1 };
  const a = counts(output);
  const b = counts(expected);
  let overlap = 0;
  for (const [t, n] of a) overlap += Math.min(n, b.get(t) ?? 0);
  const precision = output.length ? overlap / output.length : 0;
  const recall = expected.length ? overlap / expected.length : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** Length of the longest strictly increasing subsequence (patience sorting, O(n log n)). */
export function longestIncreasing(xs: number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

/**
 * Matches each reference element to an unused output element with the most similar text (Dice
 * coefficient of token sets, at least 0.5), looking only at output elements that share one of the
 * reference element's rarest tokens, so large documents stay fast.
 */
export function matchElements(output: EvalElement[], expected: EvalElement[]): Array<[number, number]> {
  const outSets = output.map((e) => new Set(tokens(e.text)));
  const df = new Map<string, number>();
  for (const s of outSets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const index = new Map<string, number[]>();
  outSets.forEach((s, i) => {
    for (const t of s) {
      let list = index.get(t);
      if (!list) index.set(t, (list = []));
      list.push(i);
    }
  });
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  expected.forEach((e, ei) => {
    const set = new Set(tokens(e.text));
    if (!set.size) return;
    const rare = [...set]
      .filter((t) => df.has(t))
      .sort((x, y) => df.get(x)! - df.get(y)!)
      .slice(0, 3);
    let best = -1;
    let bestScore = 0.5;
    for (const t of rare) {
      for (const oi of index.get(t)!) {
        if (used.has(oi)) continue;
        const o = outSets[oi]!;
        let inter = 0;
        for (const x of set) if (o.has(x)) inter++;
        const score = (2 * inter) / (set.size + o.size);
        if (score > bestScore || (score === bestScore && best >= 0 && oi < best)) {
          bestScore = score;
          best = oi;
        }
      }
    }
    if (best >= 0) {
      used.add(best);
      pairs.push([ei, best]);
    }
  });
  return pairs;
}

/** Scores one document's output against its reference. */
export function scoreDocument(output: EvalElement[], expected: EvalElement[]): DocumentScores {
  const f1 = tokenF1(tokens(output.map((e) => e.text).join(' ')), tokens(expected.map((e) => e.text).join(' ')));
  const pairs = matchElements(output, expected);
  const order = pairs.length ? longestIncreasing(pairs.map(([, o]) => o)) / pairs.length : expected.length ? 0 : 1;
  const sameType = pairs.filter(([e, o]) => expected[e]!.type === output[o]!.type).length;
  const tableIdx = new Set(expected.flatMap((e, i) => (e.type === 'Table' ? [i] : [])));
  const tablesFound = pairs.filter(([e, o]) => tableIdx.has(e) && output[o]!.type === 'Table').length;
  return {
    text_f1: f1.f1,
    text_precision: f1.precision,
    text_recall: f1.recall,
    order,
    type_agreement: pairs.length ? sameType / pairs.length : expected.length ? 0 : 1,
    matched: pairs.length,
    expected_elements: expected.length,
    output_elements: output.length,
    expected_tables: tableIdx.size,
    tables_found: tablesFound,
  };
}

/** How the output's headings (Title elements) agree with the reference's. */
export interface HeadingScores {
  /** Output Titles that are reference Titles (1 when the output has none). */
  heading_precision: number;
  /** Reference Titles found among the output Titles (1 when the reference has none). */
  heading_recall: number;
  heading_f1: number;
  expected_headings: number;
  output_headings: number;
  matched_headings: number;
  /** Of the matched headings whose both sides give `category_depth`, the share with equal depth. */
  heading_levels?: number;
}

const headingKey = (text: string): string => tokens(text).join(' ');

/**
 * Heading precision and recall: reference Titles against output Titles, matched one to one by
 * their normalized text (lower-cased words, punctuation and spacing ignored), in document order.
 */
export function headingScores(output: readonly EvalElement[], expected: readonly EvalElement[]): HeadingScores {
  const ours = output.filter((e) => e.type === 'Title' && headingKey(e.text));
  const theirs = expected.filter((e) => e.type === 'Title' && headingKey(e.text));
  const waiting = new Map<string, EvalElement[]>();
  for (const e of ours) {
    const k = headingKey(e.text);
    let list = waiting.get(k);
    if (!list) waiting.set(k, (list = []));
    list.push(e);
  }
  let matched = 0;
  let leveled = 0;
  let sameLevel = 0;
  for (const e of theirs) {
    const o = waiting.get(headingKey(e.text))?.shift();
    if (!o) continue;
    matched++;
    if (e.depth !== undefined && o.depth !== undefined) {
      leveled++;
      if (e.depth === o.depth) sameLevel++;
    }
  }
  const precision = ours.length ? matched / ours.length : 1;
  const recall = theirs.length ? matched / theirs.length : 1;
  return {
    heading_precision: precision,
    heading_recall: recall,
    heading_f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    expected_headings: theirs.length,
    output_headings: ours.length,
    matched_headings: matched,
    ...(leveled ? { heading_levels: sameLevel / leveled } : {}),
  };
}

import { createRequire } from 'node:module';

/*
 * franc's language ranking (franc-min's `francAll`), with its trigram models read where they lie.
 * franc builds an object of 300 trigrams for each of its 66 languages when it loads, 20 000
 * properties before the first text, and then looks each of a text's trigrams up in every model of
 * the text's script. Here a script's models are indexed the first time a text of that script is
 * ranked (each trigram: the languages that have it, and its rank there, in typed arrays), and each of a text's
 * trigrams is looked up once: same data, same arithmetic, the same ranking (checked against franc
 * itself in the tests).
 */

/** A language code (ISO 639-3, as franc writes it) and its score, best first; `[['und', 1]]` when undetermined. */
export type LanguageRanking = Array<[string, number]>;

interface FrancData {
  /** Per script, per language: the model's trigrams, most frequent first, separated by `|`. */
  data: Record<string, Record<string, string>>;
  /** Per script (or single-script language), a global expression matching its characters. */
  expressions: Record<string, RegExp>;
}

// franc's constants: samples are cut at 2048 characters, shorter than 10 are undetermined, and a
// trigram missing from a model costs 300.
const MAX_LENGTH = 2048;
const MIN_LENGTH = 10;
const MAX_DIFFERENCE = 300;

let franc: FrancData | undefined;
/**
 * One script's models: its language codes in franc's order, and for each trigram (keyOf) the
 * languages that have it, as a list through `next` of a language's index and the trigram's rank
 * there (typed arrays: one entry per trigram of a model, no object per trigram).
 */
interface ScriptModels {
  codes: string[];
  /** Trigram -> its first entry. */
  head: Map<number, number>;
  language: Int32Array;
  rank: Int32Array;
  /** The next entry of the same trigram, -1 after the last. */
  next: Int32Array;
}
const models = new Map<string, ScriptModels>();

// The data modules load when a text first needs them; franc-min has no exports map to forbid it.
function francData(): FrancData {
  if (!franc) {
    const require = createRequire(import.meta.url);
    franc = {
      data: (require('franc-min/data.js') as Pick<FrancData, 'data'>).data,
      expressions: (require('franc-min/expressions.js') as Pick<FrancData, 'expressions'>).expressions,
    };
  }
  return franc;
}

/**
 * A 3-unit trigram as one exact number (a small integer when its units are below 1024, as Latin
 * letters are, which Maps hash fastest); anything else as NaN, which matches nothing, as in franc.
 */
function keyOf(text: string, start: number, length: number): number {
  if (length !== 3) return Number.NaN;
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  return (a | b | c) < 1024 ? (a << 20) | (b << 10) | c : 2 ** 30 + a * 2 ** 32 + b * 2 ** 16 + c;
}

function scriptModels(script: string, languages: Record<string, string>): ScriptModels {
  let m = models.get(script);
  if (!m) {
    const codes = Object.keys(languages);
    let size = 0;
    for (const code of codes) {
      const model = languages[code]!;
      size++;
      for (let i = model.indexOf('|'); i !== -1; i = model.indexOf('|', i + 1)) size++;
    }
    m = { codes, head: new Map(), language: new Int32Array(size), rank: new Int32Array(size), next: new Int32Array(size) };
    let entry = 0;
    codes.forEach((code, l) => {
      const model = languages[code]!;
      // The model's trigrams, most frequent first, read in place rather than split.
      for (let start = 0, r = 0; start <= model.length; r++) {
        let end = model.indexOf('|', start);
        if (end === -1) end = model.length;
        const key = keyOf(model, start, end - start);
        start = end + 1;
        const first = m!.head.get(key);
        // Entries are put first in their list, so a trigram this language already has is at its
        // head: franc keeps a repeated trigram's first (most frequent) rank.
        if (first !== undefined && m!.language[first] === l) continue;
        m!.language[entry] = l;
        m!.rank[entry] = r;
        m!.next[entry] = first ?? -1;
        m!.head.set(key, entry++);
      }
    });
    models.set(script, m);
  }
  return m;
}

/** trigram-utils' `clean`: punctuation, symbols and digits of ASCII to spaces, white space collapsed, trimmed, lower case. */
function clean(value: string): string {
  return value
    .replace(/[\u0021-\u0040]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The text's padded trigrams with their counts, as trigram-utils' `asTuples` counts them (order does not matter to the sums). */
function trigramCounts(value: string): Map<number, number> {
  const padded = ` ${clean(value)} `;
  const counts = new Map<number, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const key = keyOf(padded, i, 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * The languages `value` may be written in, best first with scores from 0 to 1, exactly as
 * franc-min's `francAll(value)` ranks them.
 */
export function rankLanguages(value: string): LanguageRanking {
  if (!value || value.length < MIN_LENGTH) return [['und', 1]];
  const sample = value.slice(0, MAX_LENGTH);
  const { data, expressions } = francData();
  let script: string | undefined;
  let top = -1;
  for (const name of Object.keys(expressions)) {
    const share = (sample.match(expressions[name]!)?.length ?? 0) / sample.length || 0;
    if (share > top) {
      top = share;
      script = name;
    }
  }
  if (!script || !(script in data)) return !script || top === 0 ? [['und', 1]] : [[script, 1]];
  const { codes, head, language, rank, next } = scriptModels(script, data[script]!);
  const counts = trigramCounts(sample);
  // franc sums, over the text's trigrams, |count - rank - 1| for those in a model and 300 for the
  // others: start from 300 each and correct the ones each model has.
  const sums = new Array<number>(codes.length).fill(counts.size * MAX_DIFFERENCE);
  counts.forEach((count, key) => {
    for (let e = head.get(key) ?? -1; e !== -1; e = next[e]!) sums[language[e]!]! += Math.abs(count - rank[e]! - 1) - MAX_DIFFERENCE;
  });
  const distances: LanguageRanking = codes.map((code, l) => [code, sums[l]!]);
  distances.sort((a, b) => a[1] - b[1]);
  const min = distances[0]![1];
  const max = sample.length * MAX_DIFFERENCE - min;
  for (const d of distances) d[1] = 1 - (d[1] - min) / max || 0;
  return distances;
}

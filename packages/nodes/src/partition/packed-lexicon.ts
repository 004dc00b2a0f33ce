import { readFileSync } from 'node:fs';

/*
 * Stand-ins for wink-lexicon's data modules, read from the files scripts/pack-wink-lexicon.mjs
 * writes. The tagger looks a few words up per text; building its dictionaries whole (170 000
 * objects for the WordNet ones) cost more than a short text's whole partitioning. A stand-in reads
 * its file when first used and answers a lookup from the text (a line, found by a key index or a
 * binary search); anything else (listing keys, writing) builds the whole data once and goes on from
 * there. A value handed out is kept, so the tagger gets the same object for a word each time, as it
 * does from the module.
 */

/** What a lookup that only the whole data can answer (an array's methods) returns. */
const WHOLE = Symbol('whole');

/** How a stand-in reads its data: one key at a time, or whole. */
interface PackedData {
  /** The value at `key`; `undefined` when there is none; {@link WHOLE} when the whole data must answer. */
  lookup(key: string): unknown;
  /** Every entry, as the module exports it (handed-out values included, the same objects). */
  whole(): object;
}

function standIn(array: boolean, load: () => PackedData): object {
  let data: PackedData | undefined;
  let built: object | undefined;
  const packed = (): PackedData => (data ??= load());
  const whole = (): object => (built ??= packed().whole());
  // The value of `key` from the text while nothing needs the whole data, else WHOLE.
  const one = (key: string | symbol): unknown => (built || typeof key !== 'string' ? WHOLE : packed().lookup(key));
  return new Proxy(array ? [] : Object.create(null), {
    get: (_, key) => {
      const v = one(key);
      return v === WHOLE ? Reflect.get(whole(), key) : v;
    },
    has: (_, key) => {
      const v = one(key);
      return v === WHOLE ? Reflect.has(whole(), key) : v !== undefined;
    },
    getOwnPropertyDescriptor: (_, key) => {
      const v = one(key);
      if (v === WHOLE) return Reflect.getOwnPropertyDescriptor(whole(), key);
      if (v === undefined) return undefined;
      return key === 'length' && array
        ? { value: v, writable: true, enumerable: false, configurable: false }
        : { value: v, writable: true, enumerable: true, configurable: true };
    },
    ownKeys: () => Reflect.ownKeys(whole()),
    set: (_, key, value) => Reflect.set(whole(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(whole(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(whole(), key),
  });
}

/**
 * `lexicon.tsv`: a word, a tab and its tags separated by spaces, a line each (the words of an
 * object's keys: each once). The words are found through a hash table of line numbers in an
 * Int32Array, compared in the text: no string per line is made until a word is asked for.
 */
function lexiconData(text: string): PackedData {
  const starts = lineStarts(text);
  const lines = starts.length - 1;
  const wordEnds = new Int32Array(lines);
  const mask = 2 ** Math.ceil(Math.log2(2 * lines + 1)) - 1;
  // Slot -> line number + 1 (0: empty), probed linearly from the word's hash.
  const slots = new Int32Array(mask + 1);
  for (let line = 0; line < lines; line++) {
    const start = starts[line]!;
    const end = text.indexOf('\t', start);
    wordEnds[line] = end;
    let h = hashOf(text, start, end) & mask;
    while (slots[h] !== 0) h = (h + 1) & mask;
    slots[h] = line + 1;
  }
  const lineOf = (word: string): number | undefined => {
    for (let h = hashOf(word, 0, word.length) & mask; slots[h] !== 0; h = (h + 1) & mask) {
      const line = slots[h]! - 1;
      if (compareAt(word, text, starts[line]!, wordEnds[line]!) === 0) return line;
    }
    return undefined;
  };
  const values = new Map<string, string[]>();
  const value = (word: string, line: number): string[] => {
    let tags = values.get(word);
    if (!tags) values.set(word, (tags = text.slice(wordEnds[line]! + 1, starts[line + 1]! - 1).split(' ')));
    return tags;
  };
  return {
    lookup: (word) => {
      const line = lineOf(word);
      return line === undefined ? undefined : value(word, line);
    },
    whole: () => {
      const out = Object.create(null) as Record<string, string[]>;
      for (let line = 0; line < lines; line++) {
        const word = text.slice(starts[line]!, wordEnds[line]!);
        out[word] = value(word, line);
      }
      return out;
    },
  };
}

/** FNV-1a over the UTF-16 code units of `text` from `start` to `end`. */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Where each line of `text` starts, and one past the end of the last: the large files are searched
 * in place, which allocates two numbers a line where splitting them made a string a line (150 000
 * for the WordNet words), all of them surviving into the old generation.
 */
function lineStarts(text: string): Int32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Int32Array(count + 1);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  starts[count] = text.length + 1;
  return starts;
}

/** How `word` sorts against `text` from `start` to `end`, as `<` compares strings (by UTF-16 code units). */
function compareAt(word: string, text: string, start: number, end: number): number {
  const length = Math.min(word.length, end - start);
  for (let i = 0; i < length; i++) {
    const d = word.charCodeAt(i) - text.charCodeAt(start + i);
    if (d !== 0) return d;
  }
  return word.length - (end - start);
}

/** `wn-words.txt`: the words in their order, which is also their sort order; a word's value is its line. */
function wordListData(text: string): PackedData {
  const starts = lineStarts(text);
  const lines = starts.length - 1;
  return {
    lookup: (word) => {
      let lo = 0;
      let hi = lines - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const order = compareAt(word, text, starts[mid]!, starts[mid + 1]! - 1);
        if (order === 0) return mid;
        if (order > 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
    whole: () => {
      const out = Object.create(null) as Record<string, number>;
      for (let i = 0; i < lines; i++) out[text.slice(starts[i]!, starts[i + 1]! - 1)] = i;
      return out;
    },
  };
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/** `wn-word-senses.txt`: each entry's numbers separated by commas, a line each. */
function numberListsData(text: string): PackedData {
  const starts = lineStarts(text);
  const lines = starts.length - 1;
  const values: number[][] = [];
  const value = (i: number): number[] =>
    (values[i] ??= text
      .slice(starts[i]!, starts[i + 1]! - 1)
      .split(',')
      .map(Number));
  return {
    lookup: (key) => {
      if (key === 'length') return lines;
      if (!INDEX.test(key)) return WHOLE;
      const i = Number(key);
      return i < lines ? value(i) : undefined;
    },
    whole: () => Array.from({ length: lines }, (_, i) => value(i)),
  };
}

/** A JSON file, parsed whole on first use (the small exception lists). */
function jsonData(text: string): PackedData {
  const data = JSON.parse(text) as object;
  if (!Array.isArray(data)) Object.setPrototypeOf(data, null);
  return { lookup: () => WHOLE, whole: () => data };
}

const LAYOUTS: Readonly<Record<string, { array: boolean; read: (text: string) => PackedData }>> = {
  'lexicon.tsv': { array: false, read: lexiconData },
  'wn-words.txt': { array: false, read: wordListData },
  'wn-word-senses.txt': { array: true, read: numberListsData },
};

/** The file names this reader knows a layout for, beside JSON. */
export const PACKED_LAYOUTS: readonly string[] = Object.keys(LAYOUTS);

/**
 * The stand-in for a wink-lexicon module packed as `file` in `dir`: the file is read on first use.
 * `array` tells a JSON file's kind (an array or an object) before it is read.
 */
export function packedModule(dir: URL, file: string, array: boolean): object {
  const layout = LAYOUTS[file] ?? { array, read: jsonData };
  return standIn(layout.array, () => layout.read(readFileSync(new URL(file, dir), 'utf8')));
}

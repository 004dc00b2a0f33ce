import { openSync, readFileSync, readSync } from 'node:fs';

/*
 * Stand-ins for wink-lexicon's data modules, read from the files scripts/pack-wink-lexicon.mjs
 * writes. The tagger looks a few words up per text; building its dictionaries whole (170 000
 * objects for the WordNet ones) cost more than a short text's whole partitioning, and even reading
 * their 1.3 MB of text cost more than the words a short text looks up. A stand-in answers a lookup
 * by reading the block of its file that holds the word (its block index says where each block
 * starts and which word it starts with); anything else (listing keys, writing) builds the whole
 * data once and goes on from there. A value handed out is kept, so the tagger gets the same object
 * for a word each time, as it does from the module.
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
 * Where the lines of a packed file start, every {@link BLOCK_LINES} lines (the pack script writes
 * it into the manifest): a word is found by reading the block that holds it, a few kilobytes,
 * instead of the file.
 */
export interface BlockIndex {
  /** The file's number of lines. */
  lines: number;
  /** Byte offset of each block's first line, and the file's size last. */
  offsets: number[];
  /** Each block's first key, for files sorted by key (`undefined` for files read by line number). */
  keys?: string[];
}

/** Lines per block of a {@link BlockIndex}; the pack script writes blocks of the same size. */
export const BLOCK_LINES = 128;

/** A packed file read a block at a time (its text is ASCII, as the pack script checks). */
class BlockFile {
  private fd: number | undefined;
  private buffer = Buffer.alloc(0);
  // Blocks read so far: a long document looks up thousands of words, most of them in blocks read
  // before (a 619-page PDF read blocks 14 000 times, some 1 300 different ones).
  private readonly blocks: (string | undefined)[] = [];

  constructor(
    private readonly url: URL,
    readonly index: BlockIndex,
  ) {}

  /** The text of block `b`, its lines separated by newlines (the last without one). */
  block(b: number): string {
    return (this.blocks[b] ??= this.read(b));
  }

  private read(b: number): string {
    const start = this.index.offsets[b]!;
    const length = this.index.offsets[b + 1]! - start - (b + 1 < this.index.offsets.length - 1 ? 1 : 0);
    if (this.buffer.length < length) this.buffer = Buffer.alloc(Math.max(length, 2 * this.buffer.length));
    // The descriptor stays open for the process, like a module's code: the tagger looks words up
    // for as long as it lives.
    this.fd ??= openSync(this.url, 'r');
    let read = 0;
    while (read < length) read += readSync(this.fd, this.buffer, read, length - read, start + read);
    return this.buffer.toString('latin1', 0, length);
  }

  /** The whole text, for the rare caller that lists or changes the data. */
  whole(): string {
    return readFileSync(this.url, 'latin1');
  }

  /**
   * The line whose key (its text before a tab, or all of it) is `key` in a file sorted by key: the
   * text after the tab and, with `numbered`, its line number; `undefined` when there is none.
   */
  find(key: string, numbered = false): { line: number; rest: string } | undefined {
    const keys = this.index.keys!;
    // The last block whose first key is not after `key`.
    let lo = 0;
    let hi = keys.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (keys[mid]! <= key) lo = mid;
      else hi = mid - 1;
    }
    if (keys.length === 0 || keys[lo]! > key) return undefined;
    const b = lo;
    const text = this.block(b);
    // A binary search of the block's lines: [lo, hi) holds the starts of the lines left to test.
    lo = 0;
    hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = mid === 0 ? 0 : text.lastIndexOf('\n', mid - 1) + 1;
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const tab = text.indexOf('\t', start);
      const keyEnd = tab !== -1 && tab < end ? tab : end;
      const order = compareAt(key, text, start, keyEnd);
      if (order === 0) {
        let line = b * BLOCK_LINES;
        if (numbered) for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) line++;
        return { line, rest: keyEnd < end ? text.slice(keyEnd + 1, end) : '' };
      }
      if (order < 0) hi = start;
      else lo = end + 1;
    }
    return undefined;
  }

  /** The text of line `i` (0-based) of the file. */
  line(i: number): string {
    const text = this.block(Math.floor(i / BLOCK_LINES));
    let start = 0;
    for (let k = i % BLOCK_LINES; k > 0; k--) start = text.indexOf('\n', start) + 1;
    const end = text.indexOf('\n', start);
    return text.slice(start, end === -1 ? text.length : end);
  }
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

/** The lines of a whole file. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/**
 * A file of lines `key<TAB>value` sorted by key (the lexicon: a word and its tags separated by
 * spaces; an exception list: a word and its base form). Values found are kept, so a word's value
 * is the same object each time, as from the module.
 */
function keyedData(file: BlockFile, decode: (rest: string) => unknown): PackedData {
  const values = new Map<string, unknown>();
  const value = (key: string, rest: string): unknown => {
    let v = values.get(key);
    if (v === undefined) values.set(key, (v = decode(rest)));
    return v;
  };
  const missing = new Set<string>();
  return {
    lookup: (key) => {
      const known = values.get(key);
      if (known !== undefined || missing.has(key)) return known;
      const found = file.find(key);
      if (!found) {
        missing.add(key);
        return undefined;
      }
      return value(key, found.rest);
    },
    whole: () => {
      const out = Object.create(null) as Record<string, unknown>;
      for (const line of linesOf(file.whole())) {
        const tab = line.indexOf('\t');
        const key = line.slice(0, tab);
        out[key] = value(key, line.slice(tab + 1));
      }
      return out;
    },
  };
}

/** `wn-words.txt`: the words in their order, which is also their sort order; a word's value is its line. */
function wordListData(file: BlockFile): PackedData {
  const found = new Map<string, number | undefined>();
  return {
    lookup: (word) => {
      if (!found.has(word)) found.set(word, file.find(word, true)?.line);
      return found.get(word);
    },
    whole: () => {
      const out = Object.create(null) as Record<string, number>;
      linesOf(file.whole()).forEach((word, i) => {
        out[word] = i;
      });
      return out;
    },
  };
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/** `wn-word-senses.txt`: each entry's numbers separated by commas, a line each. */
function numberListsData(file: BlockFile): PackedData {
  const { lines } = file.index;
  const values: number[][] = [];
  const parse = (line: string): number[] => line.split(',').map(Number);
  return {
    lookup: (key) => {
      if (key === 'length') return lines;
      if (!INDEX.test(key)) return WHOLE;
      const i = Number(key);
      return i < lines ? (values[i] ??= parse(file.line(i))) : undefined;
    },
    whole: () => {
      const all = linesOf(file.whole());
      return Array.from({ length: lines }, (_, i) => (values[i] ??= parse(all[i]!)));
    },
  };
}

const LAYOUTS: Readonly<Record<string, { array: boolean; read: (file: BlockFile) => PackedData }>> = {
  'lexicon.tsv': { array: false, read: (file) => keyedData(file, (rest) => rest.split(' ')) },
  'wn-words.txt': { array: false, read: wordListData },
  'wn-word-senses.txt': { array: true, read: numberListsData },
  'wn-noun-exceptions.tsv': { array: false, read: (file) => keyedData(file, (rest) => rest) },
  'wn-verb-exceptions.tsv': { array: false, read: (file) => keyedData(file, (rest) => rest) },
  'wn-adjective-exceptions.tsv': { array: false, read: (file) => keyedData(file, (rest) => rest) },
};

/** The file names this reader knows a layout for. */
export const PACKED_LAYOUTS: readonly string[] = Object.keys(LAYOUTS);

/**
 * The stand-in for a wink-lexicon module packed as `file` in `dir`, read through its block index
 * (from the manifest) when first used. `file` must be one of {@link PACKED_LAYOUTS}.
 */
export function packedModule(dir: URL, file: string, index: BlockIndex): object {
  const layout = LAYOUTS[file];
  if (!layout) throw new Error(`no packed layout for ${file}`);
  return standIn(layout.array, () => layout.read(new BlockFile(new URL(file, dir), index)));
}

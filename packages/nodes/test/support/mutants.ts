/**
 * Seeded mutants of real documents for fuzzing the partitioners: each mutant is one corpus document
 * damaged in one way, generic (truncated, bits flipped, a range zeroed, a range duplicated) or
 * aware of its format (one ZIP member of a DOCX/XLSX/PPTX corrupted, a PDF's xref, trailer,
 * startxref or object stream corrupted). Everything is derived from `(seed, index)` alone, so the
 * name a failing test prints (`s7#0123 handbook-1p.docx zip-data(word/document.xml@812+6)`) is all
 * it takes to make the same bytes again: `mutant(sources, 7, 123)`, given the same `sources` list
 * (the source is chosen by index in it).
 *
 * The corpus lives outside the repository (`../shared/corpus/docs` from the repository root) and
 * is never copied in; {@link loadCorpus} returns `undefined` when it is absent so callers can skip.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One corpus document a mutant is made from. */
export interface MutantSource {
  /** The file name, extension included (the partitioner is chosen by content and extension). */
  name: string;
  bytes: Uint8Array;
}

/** One damaged document. */
export interface Mutant {
  /** `s<seed>#<index> <source> <mutation>`: enough to rebuild it with {@link mutant}. */
  name: string;
  seed: number;
  index: number;
  /** The source document's name. */
  source: string;
  /** What was done, e.g. `truncate(@1234)`, `zip-data(word/document.xml@812+6)`. */
  mutation: string;
  /** The file name to partition it under: the source's, so detection sees the same extension. */
  filename: string;
  bytes: Uint8Array;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The corpus directory, `../shared/corpus/docs` relative to the repository root. */
export const CORPUS_DIR = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');

// DA-619p.pdf has 619 pages: too slow to partition hundreds of times. Its first bytes still hold a
// header, object streams and page objects, which is what its mutants exercise.
const PREFIX_ONLY: Readonly<Record<string, number>> = { 'DA-619p.pdf': 192 * 1024 };
// Not documents of the corpus.
const NOT_DOCUMENTS = new Set(['README.md']);

/**
 * The corpus documents to mutate, sorted by name (so indices mean the same everywhere), or
 * `undefined` when the corpus directory is absent. DA-619p.pdf is cut to its first 192 KiB.
 */
export function loadCorpus(dir: string = CORPUS_DIR): MutantSource[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((n) => !NOT_DOCUMENTS.has(n) && !n.startsWith('.'))
    .sort()
    .map((name) => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, name)));
      const prefix = PREFIX_ONLY[name];
      return { name, bytes: prefix === undefined ? bytes : bytes.slice(0, prefix) };
    });
}

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same sequence everywhere. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG with the helpers the mutations use. */
class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Mutation = (bytes: Uint8Array, rng: Rng) => { bytes: Uint8Array; label: string } | undefined;

// ---------------------------------------------------------------------------------------------
// Generic mutations
// ---------------------------------------------------------------------------------------------

const truncate: Mutation = (b, rng) => {
  // Half the cuts land in the last 10%, where ZIP directories and PDF trailers live.
  const at = rng.chance(0.5) ? rng.between(Math.floor(b.length * 0.9), b.length - 1) : rng.int(b.length);
  return { bytes: b.slice(0, Math.max(1, at)), label: `truncate(@${Math.max(1, at)})` };
};

const flipBits: Mutation = (b, rng) => {
  const out = b.slice();
  const n = rng.between(1, 32);
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const pos = rng.int(out.length);
    out[pos]! ^= 1 << rng.int(8);
    at.push(pos);
  }
  return { bytes: out, label: `flip-bits(${n}: ${at.slice(0, 4).join(',')}${n > 4 ? ',...' : ''})` };
};

const zeroRange: Mutation = (b, rng) => {
  const len = Math.min(b.length, rng.between(1, rng.chance(0.5) ? 64 : 4096));
  const at = rng.int(b.length - len + 1);
  const out = b.slice();
  out.fill(0, at, at + len);
  return { bytes: out, label: `zero(@${at}+${len})` };
};

const duplicateRange: Mutation = (b, rng) => {
  const len = Math.min(b.length, rng.between(1, rng.chance(0.5) ? 256 : 16_384));
  const from = rng.int(b.length - len + 1);
  const to = rng.int(b.length + 1);
  const out = new Uint8Array(b.length + len);
  out.set(b.subarray(0, to), 0);
  out.set(b.subarray(from, from + len), to);
  out.set(b.subarray(to), to + len);
  return { bytes: out, label: `duplicate(@${from}+${len}->@${to})` };
};

const GENERIC: readonly Mutation[] = [truncate, flipBits, zeroRange, duplicateRange];

// ---------------------------------------------------------------------------------------------
// ZIP (DOCX, XLSX, PPTX): one member corrupted
// ---------------------------------------------------------------------------------------------

interface ZipMember {
  name: string;
  /** Offset of its central directory header. */
  central: number;
  /** Offset of its local header. */
  local: number;
  /** Offset and length of its (compressed) data. */
  dataAt: number;
  dataLength: number;
}

/** The members listed by an archive's central directory (empty when it has none readable). */
function zipMembers(b: Uint8Array): ZipMember[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (v.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return [];
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  const members: ZipMember[] = [];
  for (let i = 0; i < count && at + 46 <= b.length && v.getUint32(at, true) === 0x02014b50; i++) {
    const nameLength = v.getUint16(at + 28, true);
    const next = at + 46 + nameLength + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true);
    const name = Buffer.from(b.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    if (local + 30 <= b.length && v.getUint32(local, true) === 0x04034b50) {
      const dataAt = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
      members.push({ name, central: at, local, dataAt, dataLength: Math.min(v.getUint32(at + 20, true), b.length - dataAt) });
    }
    at = next;
  }
  return members;
}

// The parts a partitioner reads first are the interesting ones: the main document, sheets, slides.
function pickMember(members: ZipMember[], rng: Rng): ZipMember {
  const main = members.filter((m) =>
    /^(word\/document|xl\/(worksheets|sharedStrings|workbook)|ppt\/(slides\/slide|presentation))|\[Content_Types\]|_rels\//.test(m.name),
  );
  return rng.pick(main.length > 0 && rng.chance(0.7) ? main : members);
}

const zipData: Mutation = (b, rng) => {
  const members = zipMembers(b).filter((m) => m.dataLength > 0);
  if (members.length === 0) return undefined;
  const m = pickMember(members, rng);
  const out = b.slice();
  const n = rng.between(1, 8);
  const at = m.dataAt + rng.int(m.dataLength);
  for (let i = 0; i < n && at + i < m.dataAt + m.dataLength; i++) out[at + i] = rng.int(256);
  return { bytes: out, label: `zip-data(${m.name}@${at - m.dataAt}+${n})` };
};

const zipHeader: Mutation = (b, rng) => {
  const members = zipMembers(b);
  if (members.length === 0) return undefined;
  const m = pickMember(members, rng);
  const out = b.slice();
  const central = rng.chance(0.5);
  const base = central ? m.central : m.local;
  // A signature, the method, the name length or the local header offset.
  const fields = central ? [0, 10, 28, 42] : [0, 8, 26];
  const field = rng.pick(fields);
  for (let i = 0; i < 2; i++) out[base + field + i] = rng.int(256);
  return { bytes: out, label: `zip-${central ? 'central' : 'local'}-header(${m.name}+${field})` };
};

const zipSize: Mutation = (b, rng) => {
  const members = zipMembers(b);
  if (members.length === 0) return undefined;
  const m = pickMember(members, rng);
  const out = b.slice();
  const v = new DataView(out.buffer);
  const central = rng.chance(0.5);
  // Compressed or uncompressed size.
  const offset = (central ? m.central + 20 : m.local + 18) + (rng.chance(0.5) ? 0 : 4);
  const old = v.getUint32(offset, true);
  const value = rng.pick([0, 1, Math.floor(old / 2), old + rng.between(1, 4096), 0x7fffffff, 0xffffffff]);
  v.setUint32(offset, value >>> 0, true);
  return { bytes: out, label: `zip-size(${m.name},${central ? 'central' : 'local'}+${offset - (central ? m.central : m.local)}:${old}->${value >>> 0})` };
};

const ZIP: readonly Mutation[] = [zipData, zipHeader, zipSize];

// ---------------------------------------------------------------------------------------------
// PDF: xref, trailer, startxref, object streams
// ---------------------------------------------------------------------------------------------

const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

function indicesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Replaces `[at, at+length)` with `replacement` (lengths may differ). */
function splice(b: Uint8Array, at: number, length: number, replacement: string): Uint8Array {
  const r = Buffer.from(replacement, 'latin1');
  const out = new Uint8Array(b.length - length + r.length);
  out.set(b.subarray(0, at), 0);
  out.set(r, at);
  out.set(b.subarray(at + length), at + r.length);
  return out;
}

const pdfStartxref: Mutation = (b, rng) => {
  const text = latin1(b);
  const at = text.lastIndexOf('startxref');
  if (at < 0) return undefined;
  const m = /^startxref\s+(\d+)/.exec(text.slice(at, at + 40));
  if (!m) return undefined;
  const numberAt = at + m[0].length - m[1]!.length;
  const old = Number(m[1]);
  const value = rng.pick([String(rng.int(b.length)), '0', String(old + rng.between(-64, 64)), '99999999999', '-1', 'x']);
  return { bytes: splice(b, numberAt, m[1]!.length, value), label: `pdf-startxref(${old}->${value})` };
};

const pdfXref: Mutation = (b, rng) => {
  const text = latin1(b);
  const tables = indicesOf(text, '\nxref').map((i) => i + 1);
  const streams = indicesOf(text, '/XRef');
  if (tables.length === 0 && streams.length === 0) return undefined;
  const useTable = tables.length > 0 && (streams.length === 0 || rng.chance(0.5));
  const at = useTable ? rng.pick(tables) : rng.pick(streams);
  // Inside the table's entries (or the xref stream's dictionary and data).
  const from = at + rng.int(200);
  const len = Math.min(rng.between(1, 40), b.length - from);
  if (len <= 0) return undefined;
  const out = b.slice();
  const garbage = rng.chance(0.5);
  for (let i = 0; i < len; i++) out[from + i] = garbage ? rng.int(256) : 0x30 + rng.int(10);
  return { bytes: out, label: `pdf-xref(${useTable ? 'table' : 'stream'}@${at}:${from - at}+${len}${garbage ? ',garbage' : ',digits'})` };
};

const pdfTrailer: Mutation = (b, rng) => {
  const text = latin1(b);
  const trailers = indicesOf(text, 'trailer');
  const roots = indicesOf(text, '/Root');
  if (trailers.length === 0 && roots.length === 0) return undefined;
  const kind = rng.pick(['root', 'size', 'keyword', 'prev'] as const);
  if (kind === 'keyword' && trailers.length > 0) {
    const at = rng.pick(trailers);
    return { bytes: splice(b, at, 7, rng.pick(['trailex', '', '<<<<<<<'])), label: `pdf-trailer(keyword@${at})` };
  }
  const key = kind === 'size' ? '/Size' : kind === 'prev' ? '/Prev' : '/Root';
  // The trailer's entries (or, with an xref stream and no trailer, any).
  const hits = indicesOf(text, key).filter((i) => trailers.length === 0 || trailers.some((t) => i > t && i - t < 400));
  if (hits.length === 0) return undefined;
  const at = rng.pick(hits);
  const m = /^\/\w+\s*(\d+(\s+\d+\s+R)?)/.exec(text.slice(at, at + 40));
  if (!m) return undefined;
  const valueAt = at + m[0].length - m[1]!.length;
  const value = rng.pick(['0', '1 0 R', '999999 0 R', '-5', '2147483648', '(x)', '']);
  return { bytes: splice(b, valueAt, m[1]!.length, value), label: `pdf-trailer(${key}@${at}:${m[1]}->${value})` };
};

const pdfObjectStream: Mutation = (b, rng) => {
  const text = latin1(b);
  const hits = indicesOf(text, '/ObjStm');
  if (hits.length === 0) return undefined;
  const at = rng.pick(hits);
  const stream = text.indexOf('stream', at);
  if (stream < 0) return undefined;
  const end = text.indexOf('endstream', stream);
  const dataAt = stream + 6;
  const dataLength = (end < 0 ? b.length : end) - dataAt;
  if (dataLength <= 0) return undefined;
  const out = b.slice();
  if (rng.chance(0.3)) {
    // The dictionary: /N (object count) or /First (offset of the first object).
    const dictStart = Math.max(0, at - 200);
    const m = /\/(N|First)\s+(\d+)/.exec(text.slice(dictStart, stream));
    if (m) {
      const dictAt = dictStart + m.index + m[0].length - m[2]!.length;
      const value = rng.pick(['0', '99999', String(Number(m[2]) + 1)]);
      return { bytes: splice(b, dictAt, m[2]!.length, value), label: `pdf-objstm(/${m[1]}@${at}:${m[2]}->${value})` };
    }
  }
  const n = rng.between(1, 16);
  const from = dataAt + rng.int(dataLength);
  for (let i = 0; i < n && from + i < dataAt + dataLength; i++) out[from + i] = rng.int(256);
  return { bytes: out, label: `pdf-objstm(data@${at}:${from - dataAt}+${n})` };
};

const PDF: readonly Mutation[] = [pdfStartxref, pdfXref, pdfTrailer, pdfObjectStream];

// ---------------------------------------------------------------------------------------------

const isZipDocument = (name: string): boolean => /\.(docx|xlsx|pptx)$/i.test(name);
const isPdf = (name: string): boolean => /\.pdf$/i.test(name);

/** A 32-bit mix of seed and index, so each mutant has a PRNG of its own. */
function mix(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * Mutant `index` of `seed`: source `index mod sources.length` (after a seed-dependent rotation),
 * damaged by one mutation, format-aware half of the time for ZIP documents and PDFs.
 */
export function mutant(sources: readonly MutantSource[], seed: number, index: number): Mutant {
  if (sources.length === 0) throw new Error('no corpus documents to mutate');
  const rng = new Rng(mix(seed, index));
  const source = sources[(index + (mix(seed, -1) % sources.length)) % sources.length]!;
  const aware = isZipDocument(source.name) ? ZIP : isPdf(source.name) ? PDF : [];
  let result: ReturnType<Mutation>;
  if (aware.length > 0 && rng.chance(0.5)) {
    // A format-aware mutation can miss (a PDF without object streams); try the others, then fall back.
    const first = rng.int(aware.length);
    for (let i = 0; i < aware.length && !result; i++) result = aware[(first + i) % aware.length]!(source.bytes, rng);
  }
  result ??= rng.pick(GENERIC)(source.bytes, rng)!;
  return {
    name: `s${seed}#${String(index).padStart(4, '0')} ${source.name} ${result.label}`,
    seed,
    index,
    source: source.name,
    mutation: result.label,
    filename: source.name,
    bytes: result.bytes,
  };
}

/** Mutants `0 .. count-1` of `seed`. */
export function mutants(sources: readonly MutantSource[], seed: number, count: number): Mutant[] {
  return Array.from({ length: count }, (_, i) => mutant(sources, seed, i));
}

/** Parses a mutant name back to its seed and index (`s7#0123 ...` → `{ seed: 7, index: 123 }`). */
export function parseMutantName(name: string): { seed: number; index: number } | undefined {
  const m = /^s(\d+)#(\d+)\b/.exec(name);
  return m ? { seed: Number(m[1]), index: Number(m[2]) } : undefined;
}

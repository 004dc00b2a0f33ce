// Stores the large data modules of wink-lexicon (the part-of-speech tagger's dictionaries) in
// packages/nodes/vendor/wink-lexicon/, which @quarry/nodes ships: the modules are 3 MB of
// JavaScript assignments that every process compiles and runs before its first tag. The lexicon is
// stored as lines of a word and its tags, the exception lists as lines of a word and its base form
// (both sorted by word), the WordNet word list as its words in order (a word's value is its line)
// and the word senses as lines of numbers; the manifest holds each file's block index (where every
// 128th line starts, and its word), so that pos-tag.ts reads the block that holds a word instead of
// building 170 000 objects or reading 1.3 MB. Each file is checked to rebuild exactly what the
// module exports. Run through scripts/vendor.mjs.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

// The modules the tagger and its lemmatizer load that are worth packing (the rest are a few KB).
const MODULES = ['lexicon.js', 'wn-words.js', 'wn-word-senses.js', 'wn-noun-exceptions.js', 'wn-verb-exceptions.js', 'wn-adjective-exceptions.js'];
// Bumped when a file's layout changes: pos-tag.ts reads only packs of its own layout.
const LAYOUT = 3;
// Lines per block of a file's block index (packed-lexicon.ts's BLOCK_LINES).
const BLOCK_LINES = 128;

const byKey = ([a], [b]) => (a < b ? -1 : a > b ? 1 : 0);
const keyedObject = (entries) => Object.assign(Object.create(null), Object.fromEntries(entries));
/** Lines `key<TAB>value`, sorted by key: packed-lexicon.ts finds a key by its block. */
const keyed = (file, encodeValue, decodeValue) => ({
  file,
  keyed: true,
  lines: (data) =>
    Object.entries(data)
      .sort(byKey)
      .map(([key, value]) => `${key}\t${encodeValue(value)}`),
  decode: (lines) =>
    keyedObject(
      lines.map((line) => {
        const tab = line.indexOf('\t');
        return [line.slice(0, tab), decodeValue(line.slice(tab + 1))];
      }),
    ),
});
/** Each module's file and its layout, as packed-lexicon.ts reads them. */
const PACKS = {
  // A word and its tags.
  'lexicon.js': keyed(
    'lexicon.tsv',
    (tags) => tags.join(' '),
    (text) => text.split(' '),
  ),
  // The words in their order, which is their sort order too: a word's value is its line.
  'wn-words.js': {
    file: 'wn-words.txt',
    keyed: true,
    lines: (data) => {
      const words = Object.keys(data);
      if (words.some((word, i) => data[word] !== i || (i > 0 && !(words[i - 1] < word))))
        throw new Error('wn-words.js is no longer its sorted words numbered in order');
      return words;
    },
    decode: (lines) => keyedObject(lines.map((word, i) => [word, i])),
  },
  // Each word's senses, numbers separated by commas, read by line number.
  'wn-word-senses.js': {
    file: 'wn-word-senses.txt',
    keyed: false,
    lines: (data) => data.map((senses) => senses.join(',')),
    decode: (lines) => lines.map((line) => line.split(',').map(Number)),
  },
  // A word and its base form.
  'wn-noun-exceptions.js': keyed('wn-noun-exceptions.tsv', String, String),
  'wn-verb-exceptions.js': keyed('wn-verb-exceptions.tsv', String, String),
  'wn-adjective-exceptions.js': keyed('wn-adjective-exceptions.tsv', String, String),
};

/** Where every BLOCK_LINES-th line starts (the file's size last), and for a keyed file each block's first key. */
function blockIndex(lines, keyedFile) {
  const offsets = [];
  const keys = [];
  let offset = 0;
  lines.forEach((line, i) => {
    if (i % BLOCK_LINES === 0) {
      offsets.push(offset);
      if (keyedFile) keys.push(line.split('\t')[0]);
    }
    offset += line.length + 1;
  });
  offsets.push(Math.max(0, offset - 1));
  return keyedFile ? { lines: lines.length, offsets, keys } : { lines: lines.length, offsets };
}

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packs wink-lexicon's large data modules into vendor/wink-lexicon/ unless the pack there is current. */
export function packWinkLexicon() {
  const tagger = createRequire(join(nodesRoot, 'package.json')).resolve('wink-pos-tagger');
  const fromTagger = createRequire(tagger);
  const lexiconRoot = dirname(fromTagger.resolve('wink-lexicon/package.json'));
  const { version } = JSON.parse(readFileSync(join(lexiconRoot, 'package.json'), 'utf8'));
  const target = join(nodesRoot, 'vendor', 'wink-lexicon');
  const manifestPath = join(target, 'manifest.json');
  const files = Object.fromEntries(MODULES.map((name) => [name, PACKS[name].file]));
  const manifestVersion = { version, layout: LAYOUT, blockLines: BLOCK_LINES, modules: MODULES, files };
  if (existsSync(manifestPath)) {
    const { blocks: _, ...current } = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (isDeepStrictEqual(current, manifestVersion)) return;
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const blocks = {};
  for (const name of MODULES) {
    const data = fromTagger(`wink-lexicon/src/${name}`);
    const pack = PACKS[name];
    const lines = pack.lines(data);
    const text = lines.join('\n');
    // Blocks are read as bytes, one per character: the text must be ASCII, with no line breaks or
    // tabs inside a key or value.
    if (!/^[\x00-\x7f]*$/.test(text)) throw new Error(`wink-lexicon/src/${name} holds text other than ASCII`);
    if (lines.some((line) => line.includes('\n') || line.split('\t').length !== (PACKS[name].file.endsWith('.tsv') ? 2 : 1)))
      throw new Error(`wink-lexicon/src/${name} holds a line break or tab in a key or value`);
    // What pos-tag.ts rebuilds must be what the module exports (an object with wink's null prototype).
    if (!isDeepStrictEqual(pack.decode(lines), data)) throw new Error(`wink-lexicon/src/${name} does not survive packing as ${pack.file}`);
    writeFileSync(join(target, pack.file), text);
    blocks[pack.file] = blockIndex(lines, pack.keyed);
  }
  // wink-lexicon's licence and WordNet's notice, which must accompany copies of the data: both are
  // in the comments that open its WordNet modules.
  const header = readFileSync(join(lexiconRoot, 'src', 'wn-words.js'), 'utf8').split('\n');
  const notice = header
    .slice(
      0,
      header.findIndex((line) => line.trim() !== '' && !line.startsWith('//')),
    )
    .map((line) => line.replace(/^\/\/ ?/, ''));
  writeFileSync(join(target, 'LICENSE'), `${notice.join('\n').trim()}\n`);
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifestVersion, blocks })}\n`);
  console.log(`packed wink-lexicon ${version} into ${target}`);
}

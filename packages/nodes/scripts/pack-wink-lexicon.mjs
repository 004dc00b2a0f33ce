// Stores the large data modules of wink-lexicon (the part-of-speech tagger's dictionaries) in
// packages/nodes/vendor/wink-lexicon/, which @quarry/nodes ships: the modules are 3 MB of
// JavaScript assignments that every process compiles and runs before its first tag. The lexicon is
// stored as lines of a word and its tags, the WordNet word list as its words in order (a word's
// value is its line) and the word senses as lines of numbers, which pos-tag.ts reads a word at a
// time instead of building 170 000 objects; the small exception lists as JSON. Each file is checked
// to rebuild exactly what the module exports. Run through scripts/vendor.mjs.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

// The modules the tagger and its lemmatizer load that are worth packing (the rest are a few KB).
const MODULES = ['lexicon.js', 'wn-words.js', 'wn-word-senses.js', 'wn-noun-exceptions.js', 'wn-verb-exceptions.js', 'wn-adjective-exceptions.js'];
// Bumped when a file's layout changes: pos-tag.ts reads only packs of its own layout.
const LAYOUT = 2;

/** Each module's file and its layout, as pos-tag.ts reads them. */
const PACKS = {
  'lexicon.js': {
    file: 'lexicon.tsv',
    encode: (data) =>
      Object.entries(data)
        .map(([word, tags]) => `${word}\t${tags.join(' ')}`)
        .join('\n'),
    decode: (text) =>
      Object.assign(
        Object.create(null),
        Object.fromEntries(
          text.split('\n').map((line) => {
            const tab = line.indexOf('\t');
            return [line.slice(0, tab), line.slice(tab + 1).split(' ')];
          }),
        ),
      ),
  },
  'wn-words.js': {
    file: 'wn-words.txt',
    encode: (data) => Object.keys(data).join('\n'),
    decode: (text) => Object.assign(Object.create(null), Object.fromEntries(text.split('\n').map((word, i) => [word, i]))),
  },
  'wn-word-senses.js': {
    file: 'wn-word-senses.txt',
    encode: (data) => data.map((senses) => senses.join(',')).join('\n'),
    decode: (text) => text.split('\n').map((line) => line.split(',').map(Number)),
  },
};
const jsonPack = (name) => ({
  file: name.replace(/\.js$/, '.json'),
  encode: (data) => JSON.stringify(data),
  decode: (text) => {
    const data = JSON.parse(text);
    if (!Array.isArray(data)) Object.setPrototypeOf(data, null);
    return data;
  },
});

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packs wink-lexicon's large data modules into vendor/wink-lexicon/ unless the pack there is current. */
export function packWinkLexicon() {
  const tagger = createRequire(join(nodesRoot, 'package.json')).resolve('wink-pos-tagger');
  const fromTagger = createRequire(tagger);
  const lexiconRoot = dirname(fromTagger.resolve('wink-lexicon/package.json'));
  const { version } = JSON.parse(readFileSync(join(lexiconRoot, 'package.json'), 'utf8'));
  const target = join(nodesRoot, 'vendor', 'wink-lexicon');
  const manifestPath = join(target, 'manifest.json');
  const wanted = { version, layout: LAYOUT, modules: MODULES, files: Object.fromEntries(MODULES.map((name) => [name, (PACKS[name] ?? jsonPack(name)).file])) };
  if (existsSync(manifestPath) && isDeepStrictEqual(JSON.parse(readFileSync(manifestPath, 'utf8')), wanted)) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const name of MODULES) {
    const data = fromTagger(`wink-lexicon/src/${name}`);
    const pack = PACKS[name] ?? jsonPack(name);
    const text = pack.encode(data);
    // What pos-tag.ts rebuilds must be what the module exports (an object with wink's null prototype).
    if (!isDeepStrictEqual(pack.decode(text), data)) throw new Error(`wink-lexicon/src/${name} does not survive packing as ${pack.file}`);
    writeFileSync(join(target, pack.file), text);
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
  writeFileSync(manifestPath, `${JSON.stringify(wanted)}\n`);
  console.log(`packed wink-lexicon ${version} into ${target}`);
}

// Stores the large data modules of wink-lexicon (the part-of-speech tagger's dictionaries) as JSON
// in packages/nodes/vendor/wink-lexicon/, which @quarry/nodes ships: the modules are 3 MB of
// JavaScript assignments that every process compiles and runs before its first tag, and the same
// data parses as JSON about three times faster (pos-tag.ts hands it to the tagger). Each file is
// checked to rebuild exactly what the module exports. Run through scripts/vendor.mjs.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

// The modules the tagger and its lemmatizer load that are worth packing (the rest are a few KB).
const MODULES = ['lexicon.js', 'wn-words.js', 'wn-word-senses.js', 'wn-noun-exceptions.js', 'wn-verb-exceptions.js', 'wn-adjective-exceptions.js'];

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packs wink-lexicon's large data modules into vendor/wink-lexicon/ unless the pack there is current. */
export function packWinkLexicon() {
  const tagger = createRequire(join(nodesRoot, 'package.json')).resolve('wink-pos-tagger');
  const fromTagger = createRequire(tagger);
  const lexiconRoot = dirname(fromTagger.resolve('wink-lexicon/package.json'));
  const { version } = JSON.parse(readFileSync(join(lexiconRoot, 'package.json'), 'utf8'));
  const target = join(nodesRoot, 'vendor', 'wink-lexicon');
  const manifestPath = join(target, 'manifest.json');
  const wanted = { version, modules: MODULES };
  if (existsSync(manifestPath) && isDeepStrictEqual(JSON.parse(readFileSync(manifestPath, 'utf8')), wanted)) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const name of MODULES) {
    const data = fromTagger(`wink-lexicon/src/${name}`);
    const json = JSON.stringify(data);
    // What pos-tag.ts rebuilds: the parsed JSON, an object given a null prototype (as wink makes them).
    const rebuilt = JSON.parse(json);
    if (!Array.isArray(rebuilt)) Object.setPrototypeOf(rebuilt, null);
    if (!isDeepStrictEqual(rebuilt, data)) throw new Error(`wink-lexicon/src/${name} does not survive a JSON round trip`);
    writeFileSync(join(target, name.replace(/\.js$/, '.json')), json);
  }
  // wink-lexicon's licence and WordNet's notice, which must accompany copies of the data: both are
  // in the comments that open its WordNet modules.
  const header = readFileSync(join(lexiconRoot, 'src', 'wn-words.js'), 'utf8').split('\n');
  const notice = header.slice(0, header.findIndex((line) => line.trim() !== '' && !line.startsWith('//'))).map((line) => line.replace(/^\/\/ ?/, ''));
  writeFileSync(join(target, 'LICENSE'), `${notice.join('\n').trim()}\n`);
  writeFileSync(manifestPath, `${JSON.stringify(wanted)}\n`);
  console.log(`packed wink-lexicon ${version} into ${target}`);
}

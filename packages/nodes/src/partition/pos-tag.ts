import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';

/** One tagged token: its text and Penn Treebank part-of-speech tag (`VBZ`, `NN`, ...). */
export interface TaggedToken {
  value: string;
  pos: string;
}

interface WinkToken {
  value: string;
  tag: string;
  pos: string;
}

interface WinkTagger {
  tagSentence(sentence: string): WinkToken[];
}

let tagger: WinkTagger | undefined;
let lexicon: Record<string, unknown> | undefined;

const require = createRequire(import.meta.url);
// The tagger's dictionaries are its dependency wink-lexicon's modules, resolved from the tagger.
const fromTagger = createRequire(require.resolve('wink-pos-tagger'));
// The same from src/ and dist/: both sit two levels below the package root, beside vendor/.
const PACKED_LEXICON = new URL('../../vendor/wink-lexicon/', import.meta.url);

/** What the build packed (`scripts/pack-wink-lexicon.mjs`): the wink-lexicon version and modules. */
interface PackedManifest {
  version: string;
  modules: string[];
}

let packed: PackedManifest | null | undefined;

// The packed JSON stands in for wink-lexicon's modules only when it was made from the installed
// version; otherwise (or when a source checkout was never built) wink loads its own modules.
function packedManifest(): PackedManifest | null {
  if (packed === undefined) {
    packed = null;
    try {
      const manifest = JSON.parse(readFileSync(new URL('manifest.json', PACKED_LEXICON), 'utf8')) as PackedManifest;
      const installed = (fromTagger('wink-lexicon/package.json') as { version: string }).version;
      if (manifest.version === installed) packed = manifest;
    } catch {
      // No packed lexicon: the modules load as they are.
    }
  }
  return packed;
}

/** The data of a packed module: its JSON parsed, an object given the null prototype wink gives them. */
function readPacked(name: string): object {
  const data = JSON.parse(readFileSync(new URL(name.replace(/\.js$/, '.json'), PACKED_LEXICON), 'utf8')) as object;
  if (!Array.isArray(data)) Object.setPrototypeOf(data, null);
  return data;
}

/**
 * A stand-in for a packed module's data that parses it on first use. The tagger consults the
 * WordNet modules only for a word outside its lexicon or an inflected one to lemmatize, so a short
 * text of common words is tagged without parsing them (1.8 MB of JSON). Every operation goes to
 * the parsed data, so the tagger sees the same object as before.
 */
function lazyPacked(name: string, array: boolean): object {
  let data: object | undefined;
  const load = (): object => (data ??= readPacked(name));
  return new Proxy(array ? [] : Object.create(null), {
    get: (_, key) => Reflect.get(load(), key),
    set: (_, key, value) => Reflect.set(load(), key, value),
    has: (_, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(load(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(load(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(load(), key),
  });
}

// wink-lexicon's WordNet modules hold arrays (word senses) or objects: the stand-in must be the same.
const ARRAY_MODULES = new Set(['wn-word-senses.js']);
// The lexicon is read for every word: it is parsed when first wanted, not behind a stand-in.
const EAGER_MODULES = new Set(['lexicon.js']);

/**
 * Puts the packed JSON of the wink-lexicon modules `names` (`lexicon.js`, ...; default every packed
 * one) into the module cache, where the tagger's `require` finds them: the modules are megabytes of
 * JavaScript statements, and the same data parses as JSON about three times faster. The build
 * checked that this rebuilds each module's exports exactly.
 */
function preloadPacked(names?: readonly string[]): void {
  const manifest = packedManifest();
  if (!manifest) return;
  for (const name of names ?? manifest.modules) {
    if (!manifest.modules.includes(name)) continue;
    const filename = fromTagger.resolve(`wink-lexicon/src/${name}`);
    if (require.cache[filename]) continue;
    const module = new Module(filename);
    module.filename = filename;
    module.exports = EAGER_MODULES.has(name) ? readPacked(name) : lazyPacked(name, ARRAY_MODULES.has(name));
    module.loaded = true;
    require.cache[filename] = module;
  }
}

// wink-pos-tagger loads 3 MB of dictionaries, so it is required on first use only.
function getTagger(): WinkTagger {
  if (!tagger) {
    preloadPacked();
    const create = require('wink-pos-tagger') as () => WinkTagger;
    tagger = create();
  }
  return tagger;
}

// The tagger's own English lexicon (about 14 000 common words).
function getLexicon(): Record<string, unknown> {
  if (!lexicon) {
    preloadPacked(['lexicon.js']);
    lexicon = fromTagger('wink-lexicon/src/lexicon.js') as Record<string, unknown>;
  }
  return lexicon;
}

/**
 * True when `word` (or its stem without a common English inflection) is in the tagger's lexicon
 * of common English words.
 */
export function isCommonEnglishWord(word: string): boolean {
  const lex = getLexicon();
  const w = word.toLowerCase();
  if (Object.hasOwn(lex, w)) return true;
  for (const [suffix, repl] of INFLECTIONS) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix) && Object.hasOwn(lex, w.slice(0, -suffix.length) + repl)) return true;
  }
  return false;
}

const INFLECTIONS: ReadonlyArray<readonly [string, string]> = [
  ['ies', 'y'], ['es', ''], ['s', ''], ['ied', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['ly', ''], ['er', ''], ['est', ''],
];

/**
 * Tags the words of `text` with Penn Treebank tags, standing in for NLTK's averaged-perceptron
 * `pos_tag` that the reference library uses. Punctuation and other non-word tokens are dropped.
 */
export function posTag(text: string): TaggedToken[] {
  return getTagger()
    .tagSentence(text)
    .filter((t) => t.tag === 'word')
    .map((t) => ({ value: t.value, pos: t.pos }));
}

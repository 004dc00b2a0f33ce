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

/**
 * Puts the packed JSON of the wink-lexicon modules `names` (`lexicon.js`, ...; default every packed
 * one) into the module cache, where the tagger's `require` finds them: the modules are megabytes of
 * JavaScript statements, and the same data parses as JSON about three times faster. Objects get the
 * null prototype wink gives them; the build checked that this rebuilds each module's exports exactly.
 */
function preloadPacked(names?: readonly string[]): void {
  const manifest = packedManifest();
  if (!manifest) return;
  for (const name of names ?? manifest.modules) {
    if (!manifest.modules.includes(name)) continue;
    const filename = fromTagger.resolve(`wink-lexicon/src/${name}`);
    if (require.cache[filename]) continue;
    const data = JSON.parse(readFileSync(new URL(name.replace(/\.js$/, '.json'), PACKED_LEXICON), 'utf8')) as object;
    if (!Array.isArray(data)) Object.setPrototypeOf(data, null);
    const module = new Module(filename);
    module.filename = filename;
    module.exports = data;
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

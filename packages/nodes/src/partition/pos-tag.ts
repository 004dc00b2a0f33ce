import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { packedModule, PACKED_LAYOUTS, type BlockIndex } from './packed-lexicon.js';

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
const BUNDLED_TAGGER = new URL('../../vendor/wink-pos-tagger/', import.meta.url);

/** What the build packed (`scripts/pack-wink-lexicon.mjs`): the wink-lexicon version, its layout, each module's file and each file's block index. */
interface PackedManifest {
  version: string;
  layout: number;
  modules: string[];
  files: Record<string, string>;
  blocks: Record<string, BlockIndex>;
}

// The layout of the files packed-lexicon.ts reads; the pack script writes the same number.
const PACK_LAYOUT = 3;

let packed: PackedManifest | null | undefined;

// The packed files stand in for wink-lexicon's modules only when they were made from the installed
// version in this layout; otherwise (or when a source checkout was never built) wink loads its own.
function packedManifest(): PackedManifest | null {
  if (packed === undefined) {
    packed = null;
    try {
      const manifest = JSON.parse(readFileSync(new URL('manifest.json', PACKED_LEXICON), 'utf8')) as PackedManifest;
      const installed = (fromTagger('wink-lexicon/package.json') as { version: string }).version;
      const readable = manifest.modules.every((name) => {
        const file = manifest.files[name] ?? '';
        return PACKED_LAYOUTS.includes(file) && manifest.blocks[file] !== undefined;
      });
      if (manifest.version === installed && manifest.layout === PACK_LAYOUT && readable) packed = manifest;
    } catch {
      // No packed lexicon: the modules load as they are.
    }
  }
  return packed;
}

/**
 * Puts stand-ins for the wink-lexicon modules `names` (`lexicon.js`, ...; default every packed one)
 * into the module cache, where the tagger's `require` finds them: the modules are megabytes of
 * JavaScript statements, while a stand-in reads its packed file when first used and a word at a
 * time, from the block of its file that holds it (packed-lexicon.ts). The build checked that the files rebuild each module's exports exactly.
 */
function preloadPacked(names?: readonly string[]): void {
  const manifest = packedManifest();
  if (!manifest) return;
  for (const name of names ?? manifest.modules) {
    const file = manifest.files[name];
    const index = file === undefined ? undefined : manifest.blocks[file];
    if (!manifest.modules.includes(name) || !file || !index) continue;
    const filename = fromTagger.resolve(`wink-lexicon/src/${name}`);
    if (require.cache[filename]) continue;
    const module = new Module(filename);
    module.filename = filename;
    module.exports = packedModule(PACKED_LEXICON, file, index);
    module.loaded = true;
    require.cache[filename] = module;
  }
}

/**
 * wink-pos-tagger as the build bundled it (`scripts/bundle-wink-tagger.mjs`: its code and the
 * packages it requires in one file, instead of sixteen to resolve and read), when made from the
 * installed version; it requires wink-lexicon's modules through the tagger's own `require`, which
 * finds the stand-ins. `undefined` without a current bundle.
 */
function bundledTagger(): (() => WinkTagger) | undefined {
  let manifest: { version: string; file: string };
  try {
    manifest = JSON.parse(readFileSync(new URL('manifest.json', BUNDLED_TAGGER), 'utf8')) as { version: string; file: string };
  } catch {
    // Not built (a source checkout): wink-pos-tagger loads as it is.
    return undefined;
  }
  if (manifest.version !== (require('wink-pos-tagger/package.json') as { version: string }).version) return undefined;
  const file = new URL(manifest.file, BUNDLED_TAGGER);
  const module = { exports: {} as unknown };
  compileFunction(readFileSync(file, 'utf8'), ['require', 'module', 'exports'], { filename: fileURLToPath(file) })(fromTagger, module, module.exports);
  return module.exports as () => WinkTagger;
}

// wink-pos-tagger loads 3 MB of dictionaries, so it is required on first use only.
function getTagger(): WinkTagger {
  if (!tagger) {
    preloadPacked();
    const create = bundledTagger() ?? (require('wink-pos-tagger') as () => WinkTagger);
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
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ied', 'y'],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
  ['ly', ''],
  ['er', ''],
  ['est', ''],
];

/**
 * Tags the words of `text` with Penn Treebank tags, standing in for NLTK's averaged-perceptron
 * `pos_tag` that `unstructured` uses. Punctuation and other non-word tokens are dropped.
 */
export function posTag(text: string): TaggedToken[] {
  return getTagger()
    .tagSentence(text)
    .filter((t) => t.tag === 'word')
    .map((t) => ({ value: t.value, pos: t.pos }));
}

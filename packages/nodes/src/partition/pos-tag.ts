import { createRequire } from 'node:module';

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

// wink-pos-tagger loads a 13 MB lexicon (about 0.2 s), so it is required on first use only.
function getTagger(): WinkTagger {
  if (!tagger) {
    const require = createRequire(import.meta.url);
    const create = require('wink-pos-tagger') as () => WinkTagger;
    tagger = create();
  }
  return tagger;
}

// The tagger's own English lexicon (about 14 000 common words), resolved from the tagger's
// location because it is the tagger's dependency, not ours.
function getLexicon(): Record<string, unknown> {
  if (!lexicon) {
    const require = createRequire(import.meta.url);
    const fromTagger = createRequire(require.resolve('wink-pos-tagger'));
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

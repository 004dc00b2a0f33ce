/**
 * Sentence and word tokenization close to what `unstructured` gets from NLTK (`punkt`
 * sentences, Treebank words). The text classifiers only count sentences and words and check
 * capitalisation, so these approximations keep their decisions without shipping NLTK's models.
 */

// Abbreviations punkt's English model knows; a period after one of them does not end a sentence.
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof rev hon gen col capt lt sgt st jr sr inc ltd co corp llc bros dept univ ' +
    'vs etc e.g i.e cf al approx fig figs no nos vol vols pp p ch sec art ed eds est ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun ' +
    'u.s u.k u.n a.m p.m ph.d mt ft ave blvd rd'
  ).split(' '),
);

const TERMINATOR = /[.!?]+["'”’)\]]*(?=\s)/gu;

/** Splits `text` into sentences at `.`, `!` and `?` followed by whitespace, as punkt does. */
export function sentTokenize(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const m of text.matchAll(TERMINATOR)) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && !m[0].startsWith('...') && !endsSentence(text, m.index)) continue;
    const s = text.slice(start, end).trim();
    if (s) sentences.push(s);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

// A period ends a sentence unless the word before it is a known abbreviation or a single-letter
// initial ("J. Smith").
function endsSentence(text: string, periodIndex: number): boolean {
  let i = periodIndex;
  while (i > 0 && !/\s/u.test(text[i - 1]!)) i--;
  const word = text
    .slice(i, periodIndex)
    .replace(/^["'“‘([]+/u, '')
    .toLowerCase();
  if (ABBREVIATIONS.has(word)) return false;
  if (/^\p{L}$/u.test(word)) return false;
  return true;
}

const CONTRACTION = /^(.+?)(n't|'s|'m|'d|'re|'ve|'ll|’s|’m|’d|’re|’ve|’ll|n’t)$/iu;
const OPENERS = new Set(['"', "'", '“', '‘', '(', '[', '{', '<', '`']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '}', '>', ',', ';', ':', '!', '?']);

/**
 * Splits `text` into word tokens the way NLTK's `word_tokenize` does in the cases that matter for
 * classification: punctuation and brackets become their own tokens, a sentence-final period is
 * split off (an inner one, as in "Inc.", is kept), and contractions split ("don't" -> "do", "n't").
 */
export function wordTokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const sentence of sentTokenize(text)) {
    const spaced = sentence
      .replace(/([;@#$%&?![\](){}<>])/gu, ' $1 ')
      .replace(/([:,])(?=\D|$)/gu, ' $1 ')
      .replace(/(\.\.\.|--)/gu, ' $1 ');
    const chunks = spaced.split(/\s+/u).filter(Boolean);
    chunks.forEach((chunk, i) => pushChunk(chunk, i === chunks.length - 1, tokens));
  }
  return tokens;
}

function pushChunk(chunk: string, last: boolean, out: string[]): void {
  let c = chunk;
  const lead: string[] = [];
  while (c.length > 1 && OPENERS.has(c[0]!)) {
    lead.push(c[0]!);
    c = c.slice(1);
  }
  const trail: string[] = [];
  for (;;) {
    const ch = c[c.length - 1];
    if (c.length > 1 && ch !== undefined && (CLOSERS.has(ch) || (last && ch === '.' && !c.endsWith('...')))) {
      trail.unshift(ch);
      c = c.slice(0, -1);
    } else break;
  }
  out.push(...lead);
  const m = CONTRACTION.exec(c);
  if (m) out.push(m[1]!, m[2]!);
  else if (c) out.push(c);
  out.push(...trail);
}

/**
 * `wordTokenize(removePunctuation(text)).length`, counted without building the tokens: once
 * punctuation is gone no sentence ends, no contraction or closer is left, and of the characters
 * `wordTokenize` treats apart only `$`, `<` and `>` (their own tokens) and a leading backtick (split
 * off while more than one character remains) can occur.
 */
export function countWordsWithoutPunctuation(text: string): number {
  const s = removePunctuation(text);
  let count = 0;
  // The chunk being read: its length in code units and its leading backticks.
  let length = 0;
  let ticks = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0x20;
    const apart = c === 0x24 || c === 0x3c || c === 0x3e;
    if (apart || isJsWhitespace(c)) {
      if (length > 0) count += Math.min(ticks, length - 1) + 1;
      if (apart) count++;
      length = 0;
      ticks = 0;
    } else {
      if (c === 0x60 && ticks === length) ticks++;
      length++;
    }
  }
  return count;
}

// The code units matching `\s` (white space and line terminators; none are outside the BMP).
function isJsWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Removes every Unicode punctuation character (category P), like `unstructured`'s `remove_punctuation`. */
export function removePunctuation(text: string): string {
  return text.replace(/\p{P}/gu, '');
}

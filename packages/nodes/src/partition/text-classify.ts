import type { Element, ElementMetadata, ElementType } from '@quarry/core';
import { isPyWhitespace } from '../chunk/python-text.js';
import { newElement } from './formats/shared/new-element.js';
import { isCommonEnglishWord, posTag } from './pos-tag.js';
import { countWordsWithoutPunctuation, sentTokenize, wordTokenize } from './text-tokenize.js';

/**
 * Text-type heuristics of `unstructured` (`unstructured/partition/text_type.py`,
 * `nlp/patterns.py`): decide whether a run of text is narrative, a title, a list item, an address
 * or an e-mail address. Python string semantics (`isupper`, `istitle`, `isalpha`) are reproduced
 * because the thresholds were tuned on them.
 */

// `unstructured`'s bullet characters (`UNICODE_BULLETS`), U+F0B7 being the Symbol-font bullet.
const BULLETS = '\\u0095\\u2022\\u2023\\u2043\\u3164\\u204C\\u204D\\u2219\\u25CB\\u25CF\\u25D8\\u25E6\\u2619\\u2765\\u2767\\u29BE\\u29BF\\-\\uF0B7*\\u00B7';
/** A character class matching one bullet character. */
export const BULLET_CLASS = `[${BULLETS}]`;
// A bullet not followed by another bullet ("------" is a rule, not a bullet).
const BULLET_START_RE = new RegExp(`^${BULLET_CLASS}(?!${BULLET_CLASS})`, 'u');
const EMAIL_ADDRESS_RE = /^[a-z0-9.\-+_]+@[a-z0-9.\-+_]+\.[a-z]+/;
const NUMBERED_LIST_RE = /^\d+(\.|\))\s(.+)/su;
// A section number of two levels or more ("2.1", "2.3.5.") and the heading after it, capitalized.
const SECTION_HEADING_RE = /^\d{1,3}(?:\.\d{1,3})+\.?\s+(\p{Lu}.*)$/su;
// A heading's words: at most this many, and no clause or sentence end after them.
const MAX_SECTION_HEADING_WORDS = 8;
const CLAUSE_END_RE = /[.,;:!?]$/u;
const ENDS_IN_PUNCT_RE = /[^\p{L}\p{N}_\s]$/u;
// Braces are literal in `unstructured`'s pattern ("{Alabama", "Wyoming}"), so those four names only
// match inside braces there; that quirk is kept to classify the same lines the same way.
const US_CITY_STATE_ZIP_RE = new RegExp(
  '^\\b(?:[A-Z][a-z.-]{1,15}[ ]?){1,5},\\s?(?:\\{Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida' +
    '|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland' +
    '|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|' +
    'New[ ]Hampshire|New[ ]Jersey|New[ ]Mexico|New[ ]York|North[ ]Carolina|North[ ]Dakota' +
    '|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode[ ]Island|South[ ]Carolina|South[ ]Dakota' +
    '|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West[ ]Virginia|Wisconsin|Wyoming\\}' +
    '|\\{AL|AK|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN' +
    '|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|MP|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|' +
    'WA|WV|WI|WY\\})(, |\\s)?(?:\\b\\d{5}(?:-\\d{4})?\\b)',
  'i',
);
const VERB_TAGS = new Set(['VB', 'VBG', 'VBD', 'VBN', 'VBP', 'VBZ']);

// ---- Python string predicates --------------------------------------------------------------

/** Python `str.isupper()`: at least one cased character and no lower/title-case one. */
export function pyIsUpper(s: string): boolean {
  return /\p{Lu}/u.test(s) && !/[\p{Ll}\p{Lt}]/u.test(s);
}

/** Python `str.istitle()`: upper/title-case only after uncased characters, lower-case only after cased ones. */
export function pyIsTitle(s: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const ch of s) {
    if (/[\p{Lu}\p{Lt}]/u.test(ch)) {
      if (prevCased) return false;
      prevCased = true;
      cased = true;
    } else if (/\p{Ll}/u.test(ch)) {
      if (!prevCased) return false;
      prevCased = true;
      cased = true;
    } else prevCased = false;
  }
  return cased;
}

/** Python `str.isalpha()`: non-empty and every character a letter. */
export function pyIsAlpha(s: string): boolean {
  return /^\p{L}+$/u.test(s);
}

/** Python `str.isnumeric()`: non-empty and every character numeric. */
export function pyIsNumeric(s: string): boolean {
  return /^\p{N}+$/u.test(s);
}

// ---- `unstructured`'s measures --------------------------------------------------------------

// The narrative and title tests tokenize the same text up to four times in a row; each text's
// sentences and words are worked out once (one entry: texts are classified one after another).
let tokenizedText: string | undefined;
let sentenceWordCounts: number[] = [];
let textWords: string[] | undefined;

function tokenized(text: string): void {
  if (text === tokenizedText) return;
  tokenizedText = text;
  sentenceWordCounts = sentTokenize(text).map(countWordsWithoutPunctuation);
  textWords = undefined;
}

// `wordTokenize(text)` of the memoized text; callers only read it.
function wordsOf(text: string): readonly string[] {
  tokenized(text);
  textWords ??= wordTokenize(text);
  return textWords;
}

/** Number of sentences in `text` with at least `minLength` words (punctuation not counted). */
export function sentenceCount(text: string, minLength?: number): number {
  tokenized(text);
  let count = 0;
  for (const words of sentenceWordCounts) {
    if (minLength && words < minLength) continue;
    count++;
  }
  return count;
}

// Letter-ness of each BMP code unit, filled on first sight (0 unknown, 1 letter, 2 not a letter):
// the classifier runs on every block of every page, and a Unicode regex per character was a
// fifth of Fast PDF partitioning time.
const BMP_LETTER = new Uint8Array(0x10000);
const LETTER_RE = /\p{L}/u;

function isLetterUnit(c: number): boolean {
  if (c < 0x80) return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
  let v = BMP_LETTER[c]!;
  if (v === 0) {
    v = LETTER_RE.test(String.fromCharCode(c)) ? 1 : 2;
    BMP_LETTER[c] = v;
  }
  return v === 1;
}

/** True when fewer than `threshold` of the non-space characters are letters. */
export function underNonAlphaRatio(text: string, threshold = 0.5): boolean {
  let alpha = 0;
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        total++;
        if (LETTER_RE.test(text.slice(i, i + 2))) alpha++;
        i++;
        continue;
      }
    }
    if (isPyWhitespace(c)) continue;
    total++;
    if (isLetterUnit(c)) alpha++;
  }
  return total > 0 ? alpha / total < threshold : false;
}

/** True when more than `threshold` of the words are capitalised (single-sentence text only). */
export function exceedsCapRatio(text: string, threshold = 0.5): boolean {
  if (sentenceCount(text, 3) > 1) return false;
  if (pyIsUpper(text)) return true;
  const tokens = wordsOf(text).filter(pyIsAlpha);
  // Text with no alphabetic word is not narrative.
  if (tokens.length === 0) return true;
  const capitalized = tokens.filter((t) => pyIsTitle(t) || pyIsUpper(t)).length;
  return capitalized / tokens.length > threshold;
}

/**
 * True when at least half of the Latin-script words of `text` are common English words. The verb
 * test is an English test: `unstructured` applies it to every text, where NLTK's tagger then
 * finds "verbs" among unknown foreign words almost always, so a foreign paragraph ends up
 * narrative; skipping the test for text that is not English gives that outcome by design.
 */
export function looksEnglish(text: string): boolean {
  const words = wordsOf(text).filter((w) => /^[A-Za-z]+$/u.test(w));
  if (words.length === 0) return false;
  const known = words.filter(isCommonEnglishWord).length;
  return known * 2 >= words.length;
}

// Headings and running titles come back page after page (a quarter of the verb tests of a long
// PDF are on a text tested before), and tagging is the costliest test: short texts' answers are
// kept, a bounded number of them.
const VERB_MEMO_MAX_TEXT = 200;
const VERB_MEMO_MAX_ENTRIES = 10_000;
const verbMemo = new Map<string, boolean>();

/** True when a part-of-speech tagger finds a verb in `text`. */
export function containsVerb(text: string): boolean {
  const known = verbMemo.get(text);
  if (known !== undefined) return known;
  const t = pyIsUpper(text) ? text.toLowerCase() : text;
  const found = posTag(t).some((tok) => VERB_TAGS.has(tok.pos));
  if (text.length <= VERB_MEMO_MAX_TEXT) {
    if (verbMemo.size >= VERB_MEMO_MAX_ENTRIES) verbMemo.clear();
    verbMemo.set(text, found);
  }
  return found;
}

// ---- classifiers ---------------------------------------------------------------------------

/** Options of the narrative and title tests. */
export interface ClassifyOptions {
  /** Document languages (ISO 639-3); the verb test applies to English only. Default `['eng']`. */
  languages?: readonly string[];
}

/** `unstructured`'s `is_possible_narrative_text`. */
export function isPossibleNarrativeText(text: string, options: ClassifyOptions = {}): boolean {
  return narrativeWithoutTagger(text, options) ?? !(looksEnglish(text) && !containsVerb(text));
}

/**
 * {@link isPossibleNarrativeText} as far as it goes without the tagger and its dictionaries:
 * `undefined` when the English verb test decides.
 */
export function narrativeWithoutTagger(text: string, options: ClassifyOptions = {}): boolean | undefined {
  const languages = options.languages ?? ['eng'];
  if (text.length === 0) return false;
  if (pyIsNumeric(text)) return false;
  if (exceedsCapRatio(text, 0.5)) return false;
  if (underNonAlphaRatio(text, 0.5)) return false;
  if (languages.includes('eng') && sentenceCount(text, 3) < 2) return undefined;
  return true;
}

/** `unstructured`'s `is_possible_title`. */
export function isPossibleTitle(text: string): boolean {
  if (text.length === 0) return false;
  if (pyIsUpper(text) && ENDS_IN_PUNCT_RE.test(text)) return false;
  if (text.split(' ').length > 12) return false;
  if (underNonAlphaRatio(text, 0.5)) return false;
  // Salutations like "To My Dearest Friends," are not titles.
  if (text.endsWith(',')) return false;
  if (pyIsNumeric(text)) return false;
  if (sentenceCount(text, 5) > 1) return false;
  return true;
}

/** True when `text` starts with a bullet character. */
export function isBulletedText(text: string): boolean {
  return BULLET_START_RE.test(text.trim());
}

/** True when `text` is a bullet character alone. */
export function isEmptyBullet(text: string): boolean {
  return text.length === 1 && BULLET_START_RE.test(text);
}

/** Removes a leading bullet and the whitespace around the rest. */
export function cleanBullets(text: string): string {
  if (!BULLET_START_RE.test(text)) return text;
  return text.replace(BULLET_START_RE, '').trim();
}

/** True when `text` starts like a lower-case e-mail address. */
export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS_RE.test(text.trim());
}

// The pattern needs five digits in a row (the ZIP code): most text has none, and the pattern's
// nested word repeats backtrack over every text that starts with words and has a comma.
const FIVE_DIGITS_RE = /\d{5}/;

/** True for "Doylestown, PA 18901"-like text. */
export function isUsCityStateZip(text: string): boolean {
  return FIVE_DIGITS_RE.test(text) && US_CITY_STATE_ZIP_RE.test(text.trim());
}

/** True for "1. item" and "2) item". */
export function isPossibleNumberedList(text: string): boolean {
  return NUMBERED_LIST_RE.test(text.trim());
}

/**
 * True for a numbered section heading on a line of its own: "2.1 Scope", "2.3.5. Installing the
 * unit". `unstructured` makes the first a Title but the second NarrativeText (its verb) and
 * "2.3.5. Setup" UncategorizedText (the number's digits outweigh its letters); a section number of
 * two levels before a few capitalized words that end no sentence says heading whatever they are.
 * One level ("1. Introduction") stays a numbered list item.
 */
export function isNumberedSectionHeading(text: string): boolean {
  const m = SECTION_HEADING_RE.exec(text.trim());
  if (!m) return false;
  const heading = m[1]!.trim();
  return heading.split(/\s+/).length <= MAX_SECTION_HEADING_WORDS && !CLAUSE_END_RE.test(heading) && isPossibleTitle(heading);
}

/** A classified run of text: its element type and text (bullets removed from list items). */
export interface ClassifiedText {
  type: ElementType;
  text: string;
}

/**
 * The element type of a stand-alone paragraph of plain text (`unstructured`'s
 * `element_from_text`): bullet -> ListItem, e-mail -> EmailAddress, "City, ST 12345" -> Address,
 * "1. item" -> ListItem, "2.1 Heading" -> Title ({@link isNumberedSectionHeading}, our addition),
 * then NarrativeText, Title or UncategorizedText.
 */
export function classifyText(text: string, options: ClassifyOptions = {}): ClassifiedText {
  if (isBulletedText(text)) return { type: 'ListItem', text: cleanBullets(text) };
  if (isEmailAddress(text)) return { type: 'EmailAddress', text };
  if (isUsCityStateZip(text)) return { type: 'Address', text };
  if (isPossibleNumberedList(text)) return { type: 'ListItem', text };
  if (isNumberedSectionHeading(text)) return { type: 'Title', text };
  if (isPossibleNarrativeText(text, options)) return { type: 'NarrativeText', text };
  if (isPossibleTitle(text)) return { type: 'Title', text };
  return { type: 'UncategorizedText', text };
}

/**
 * The element type of a paragraph of markup (HTML, Markdown): like {@link classifyText} without the
 * numbered-list rule (a numbered section heading is still a Title), and text shorter than two
 * characters is dropped (`undefined`) unless it is a bullet item, as `unstructured`'s HTML parser does.
 */
export function classifyMarkupText(text: string, options: ClassifyOptions = {}): ClassifiedText | undefined {
  if (isBulletedText(text)) {
    const cleaned = cleanBullets(text);
    return cleaned ? { type: 'ListItem', text: cleaned } : undefined;
  }
  if (isUsCityStateZip(text)) return { type: 'Address', text };
  if (isEmailAddress(text)) return { type: 'EmailAddress', text };
  if (text.length < 2) return undefined;
  if (isNumberedSectionHeading(text)) return { type: 'Title', text };
  if (isPossibleNarrativeText(text, options)) return { type: 'NarrativeText', text };
  if (isPossibleTitle(text)) return { type: 'Title', text };
  return { type: 'UncategorizedText', text };
}

/**
 * The element type of a paragraph a word processor styled as body text (DOCX, ODT), as
 * `unstructured`'s document partitioners type it: no Title or list rule from the text itself, only
 * Address, EmailAddress and NarrativeText, else UncategorizedText (so is text under two characters).
 */
export function bodyParagraphType(raw: string): ElementType {
  const text = raw.trim();
  if (text.length < 2) return 'UncategorizedText';
  if (isUsCityStateZip(text)) return 'Address';
  if (isEmailAddress(text)) return 'EmailAddress';
  if (isPossibleNarrativeText(text)) return 'NarrativeText';
  return 'UncategorizedText';
}

/** {@link classifyText} as an element with a temporary id. */
export function elementFromText(text: string, metadata: ElementMetadata = {}): Element {
  const c = classifyText(text);
  return newElement(c.type, c.text, metadata);
}

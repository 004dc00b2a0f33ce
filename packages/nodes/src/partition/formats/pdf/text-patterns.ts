/**
 * Text patterns shared by the PDF layout (where a list item starts a new block) and the classifier
 * (which element type a block becomes). They follow `unstructured`'s `nlp/patterns.py`.
 */

/**
 * A bullet glyph at the start of a line: `unstructured`'s `UNICODE_BULLETS` plus the Symbol and
 * Wingdings bullets that PDFs map into the private use area. `-`, `*` and `–` count only when a
 * space follows, so "-5 dB" is not a list item.
 */
export const BULLET_START_RE =
  /^\s*(?:[\u0095\u00B7\u2022\u2023\u2043\u204C\u204D\u2219\u25A0\u25A1\u25AA\u25CB\u25CF\u25D8\u25E6\u2619\u2765\u2767\u29BE\u29BF\u3164\uF076\uF0A7\uF0B7\uF0D8\uF0FC]|[-*\u2013](?=\s))/u;

/** A numbered list item: `unstructured`'s `NUMBERED_LIST_PATTERN` (`1. text`, `2) text`). */
export const NUMBERED_START_RE = /^\s*\d{1,3}[.)]\s+\S/;

/** Sentence-final punctuation at the end of a line (closing quotes and brackets allowed after it). */
export const SENTENCE_END_RE = /[.!?:;。！？]["'”’)\]]*\s*$/u;

/**
 * Characters of scripts written without spaces between words (Han, kana, full-width forms).
 * Hangul is not among them: Korean separates words with spaces.
 */
export const CJK_CHAR_RE = /[\u2E80-\u2FDF\u3000-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]/u;

/** Removes a leading bullet glyph (`unstructured`'s `clean_bullets`). */
export function stripBullet(text: string): string {
  return text.replace(BULLET_START_RE, '').trimStart();
}

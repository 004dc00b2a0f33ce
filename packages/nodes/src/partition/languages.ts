import type { Element } from '@quarry/core';
import { ISO_639_1 } from './iso-639-1.js';
import { rankLanguages } from './trigram-languages.js';

/**
 * Language detection for `metadata.languages`, following `unstructured`'s
 * `partition/common/lang.py`: ISO 639-3 codes, short ASCII text defaults to English, one language
 * for the whole document when the document has one, per-element detection otherwise.
 */

// franc names individual languages where `unstructured` (langdetect + iso639) writes the
// macrolanguage or the better-known code.
const FRANC_TO_REFERENCE: Readonly<Record<string, string>> = {
  arb: 'ara',
  azj: 'aze',
  ckb: 'kur',
  cmn: 'zho',
  ekk: 'est',
  gug: 'grn',
  khk: 'mon',
  lvs: 'lav',
  nob: 'nor',
  npi: 'nep',
  ory: 'ori',
  pbu: 'pus',
  pes: 'fas',
  plt: 'mlg',
  qug: 'que',
  swh: 'swa',
  uzn: 'uzb',
  ydd: 'yid',
  zlm: 'msa',
};

// ISO 639-2/B codes, Tesseract codes and English names seen in `languages` settings, beside ISO 639-1.
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ...ISO_639_1,
  alb: 'sqi',
  arm: 'hye',
  baq: 'eus',
  bur: 'mya',
  chi: 'zho',
  cze: 'ces',
  dut: 'nld',
  fre: 'fra',
  geo: 'kat',
  ger: 'deu',
  gre: 'ell',
  ice: 'isl',
  mac: 'mkd',
  mao: 'mri',
  may: 'msa',
  per: 'fas',
  rum: 'ron',
  slo: 'slk',
  tib: 'bod',
  wel: 'cym',
  chi_sim: 'zho',
  chi_tra: 'zho',
  english: 'eng',
  french: 'fra',
  german: 'deu',
  spanish: 'spa',
  italian: 'ita',
  portuguese: 'por',
  dutch: 'nld',
  russian: 'rus',
  chinese: 'zho',
  japanese: 'jpn',
  korean: 'kor',
  arabic: 'ara',
};

const ASCII_ONLY = /^[\x00-\x7f]+$/u;
// Share of a document sampled for the one-language-or-several decision.
const SAMPLE_COUNT = 8;
const SAMPLE_LENGTH = 500;

/** Normalizes a user-given language code or name to ISO 639-3 (`en` -> `eng`, `chi_sim` -> `zho`). */
export function normalizeLanguageCode(code: string): string {
  const c = code.trim().toLowerCase();
  return LANGUAGE_ALIASES[c] ?? LANGUAGE_ALIASES[c.slice(0, 3)] ?? c.slice(0, 3);
}

/**
 * Detects the language of `text` as ISO 639-3 codes, e.g. `['eng']`.
 *
 * - Empty or whitespace-only text gives `[]`.
 * - ASCII-only text of fewer than five words gives `['eng']`, as in `unstructured`, because trigram
 *   models cannot tell languages apart on a few words.
 * - Otherwise franc (trigrams over the first 2048 characters) decides; ASCII-only text is taken
 *   as English when English scores within 10 % of the winner, since short lists of names and
 *   codes otherwise flip to French or Dutch. Undetermined text gives `[]`.
 */
export function detectLanguages(text: string): string[] {
  const t = text.trim();
  if (!t) return [];
  const ascii = ASCII_ONLY.test(t);
  if (ascii && t.split(/\s+/u).length < 5) return ['eng'];
  const ranked = rankLanguages(t);
  const top = ranked[0];
  if (!top || top[0] === 'und') return [];
  if (ascii && top[0] !== 'eng') {
    const eng = ranked.find(([code]) => code === 'eng');
    if (eng && eng[1] >= 0.9) return ['eng'];
  }
  return [FRANC_TO_REFERENCE[top[0]] ?? top[0]];
}

/**
 * The languages of a whole document: one code when the document is written in one language,
 * several when samples taken across it disagree (the languages found in at least a quarter of the
 * samples, or all found when none is that frequent; most frequent first), `[]` when none can be
 * determined.
 */
export function detectDocumentLanguages(text: string): string[] {
  const t = text.trim();
  if (t.length <= SAMPLE_COUNT * SAMPLE_LENGTH) return detectLanguages(t);
  const counts = new Map<string, number>();
  for (let i = 0; i < SAMPLE_COUNT; i++) {
    const start = Math.floor(((t.length - SAMPLE_LENGTH) * i) / (SAMPLE_COUNT - 1));
    for (const code of detectLanguages(t.slice(start, start + SAMPLE_LENGTH))) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const frequent = ranked.filter(([, n]) => n * 4 >= SAMPLE_COUNT);
  // When no language holds a quarter of the samples, every sample's language counts.
  return (frequent.length > 0 ? frequent : ranked).map(([code]) => code);
}

/** Options of {@link applyLanguages}. */
export interface ApplyLanguagesOptions {
  /**
   * Languages given by the caller. Without `auto` they are written to every element as given
   * (normalized to ISO 639-3); absent, empty or containing `auto` means detect.
   */
  languages?: readonly string[];
  /** Detect per element even when the document has one language. */
  perElement?: boolean;
}

/**
 * Sets `metadata.languages` on every element that has none: the caller's languages, else the
 * document's single detected language, else (a multilingual or undetermined document, or
 * `perElement`) a detection per element. Returns `elements`.
 */
export function applyLanguages(elements: Element[], options: ApplyLanguagesOptions = {}): Element[] {
  const todo = elements.filter((e) => !e.metadata.languages || e.metadata.languages.length === 0);
  if (todo.length === 0) return elements;
  const given = options.languages?.filter((l) => l.trim()) ?? [];
  if (given.length > 0 && !given.includes('auto')) {
    const codes = [...new Set(given.map(normalizeLanguageCode))];
    for (const e of todo) e.metadata.languages = [...codes];
    return elements;
  }
  const docLanguages = options.perElement
    ? []
    : detectDocumentLanguages(
        todo
          .map((e) => e.text)
          .filter(Boolean)
          .join(' '),
      );
  if (docLanguages.length === 1) {
    for (const e of todo) e.metadata.languages = [...docLanguages];
    return elements;
  }
  for (const e of todo) {
    const langs = detectLanguages(e.text);
    if (langs.length > 0) e.metadata.languages = langs;
  }
  return elements;
}

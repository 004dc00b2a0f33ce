/**
 * Which Tesseract languages are installed, and which to use for a script Tesseract's orientation
 * and script detection (OSD) found. Language data is an npm package, `@tesseract.js-data/<code>`,
 * found beside `@quarry/nodes`, in the application that runs quarry (the working directory) or
 * beside the running script; nothing is downloaded.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ISO_639_1 } from './iso-639-1.js';

/** Where one language's trained data is installed. */
export interface LanguageData {
  code: string;
  /** Directory holding `<code>.traineddata.gz`. */
  dir: string;
}

/** The language list that asks for detection (also what an absent list means). */
export const AUTO_LANGUAGE = 'auto';

// ISO 639-1 -> Tesseract codes: ISO 639-3, but Chinese is two models (simplified first).
const TESSERACT_639_1: Readonly<Record<string, string>> = { ...ISO_639_1, zh: 'chi_sim' };

/**
 * OSD script name -> Tesseract languages written in it; the first is the one to install when none
 * is. A page of the script is read with every one of them that is installed (Latin: `eng` and any
 * other installed Latin-script language). The README carries this table.
 */
export const SCRIPT_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  Latin: [
    'eng',
    'deu',
    'fra',
    'spa',
    'ita',
    'por',
    'nld',
    'pol',
    'ces',
    'slk',
    'slv',
    'hrv',
    'hun',
    'ron',
    'swe',
    'dan',
    'nor',
    'fin',
    'est',
    'lav',
    'lit',
    'tur',
    'vie',
    'ind',
    'cat',
  ],
  Fraktur: ['frk', 'deu'],
  Cyrillic: ['rus', 'ukr', 'bel', 'bul', 'mkd', 'srp'],
  Greek: ['ell'],
  Arabic: ['ara', 'fas', 'urd'],
  Hebrew: ['heb'],
  Korean: ['kor'],
  Hangul: ['kor'],
  Japanese: ['jpn'],
  Hiragana: ['jpn'],
  Katakana: ['jpn'],
  Han: ['chi_sim', 'chi_tra'],
  Devanagari: ['hin', 'mar', 'nep'],
  Bengali: ['ben'],
  Gurmukhi: ['pan'],
  Gujarati: ['guj'],
  Tamil: ['tam'],
  Telugu: ['tel'],
  Kannada: ['kan'],
  Malayalam: ['mal'],
  Sinhala: ['sin'],
  Thai: ['tha'],
  Lao: ['lao'],
  Khmer: ['khm'],
  Myanmar: ['mya'],
  Georgian: ['kat'],
  Armenian: ['hye'],
  Ethiopic: ['amh'],
  Tibetan: ['bod'],
};

// OSD tells Chinese, Japanese and Korean pages apart poorly (a few lines of Hangul can come out
// as Japanese), and English reads none of them: without the detected script's data, the first
// installed of these stands in before English does.
const CJK_FALLBACK = ['kor', 'jpn', 'chi_sim', 'chi_tra'];
const CJK_SCRIPTS = new Set(['Korean', 'Hangul', 'Japanese', 'Hiragana', 'Katakana', 'Han']);

/** The npm package that holds a language's data. */
export function ocrDataPackage(code: string): string {
  return `@tesseract.js-data/${code}`;
}

/**
 * Where language packages are looked up, in order: beside `@quarry/nodes` itself, then from the
 * working directory (the application that installed quarry), then beside the running script (a
 * globally installed CLI). A pnpm or linked install keeps quarry's own dependencies apart from the
 * application's, so the first alone would miss a package the application added.
 */
function searchRequires(): NodeJS.Require[] {
  const from = [import.meta.url, path.join(process.cwd(), 'package.json')];
  if (process.argv[1]) from.push(path.resolve(process.argv[1]));
  return from.map((f) => createRequire(f));
}

// Lookups are cached for the life of the process: OSD asks for every Latin-script language on
// every Latin page. A package installed while quarry runs is seen after a restart.
const cache = new Map<string, LanguageData | undefined>();

function findLanguage(code: string): LanguageData | undefined {
  if (!cache.has(code)) cache.set(code, lookUp(code));
  return cache.get(code);
}

function lookUp(code: string): LanguageData | undefined {
  for (const require of searchRequires()) {
    let root: string;
    try {
      root = path.dirname(require.resolve(`${ocrDataPackage(code)}/package.json`));
    } catch {
      continue;
    }
    // The integer LSTM model is what tesseract.js itself fetches for the LSTM engine: smaller and
    // faster to load than the combined legacy+LSTM data (`osd` has only the legacy one).
    const dir = ['4.0.0_best_int', '4.0.0'].map((d) => path.join(root, d)).find((d) => existsSync(path.join(d, `${code}.traineddata.gz`)));
    if (dir) return { code, dir };
  }
  return undefined;
}

// One directory per language set, made on first use and removed when the process exits.
const setDirs = new Map<string, string>();

/**
 * One directory holding the data of every language of a set, for tesseract.js's `langPath`: each
 * package keeps its language in a directory of its own. tesseract.js 7's other way, passing the
 * data itself as `{ code, data }`, names the language by its bytes when it initializes and crashes
 * the process (naptha/tesseract.js#1052); a directory of links to the installed files does not.
 */
export function languageSetDir(langs: readonly LanguageData[]): string {
  const dirs = new Set(langs.map((l) => l.dir));
  if (dirs.size === 1) return [...dirs][0]!;
  const key = langs.map((l) => `${l.code}=${l.dir}`).join('\n');
  let dir = setDirs.get(key);
  if (!dir) {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-ocr-'));
    for (const l of langs) symlinkSync(path.join(l.dir, `${l.code}.traineddata.gz`), path.join(dir, `${l.code}.traineddata.gz`));
    if (setDirs.size === 0) process.once('exit', () => setDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    setDirs.set(key, dir);
  }
  return dir;
}

/** Whether a language list asks for script detection: absent, empty or containing `auto`. */
export function wantsAutoLanguages(languages: readonly string[] | undefined): boolean {
  const codes = splitCodes(languages ?? []);
  return codes.length === 0 || codes.includes(AUTO_LANGUAGE);
}

function splitCodes(languages: readonly string[]): string[] {
  return languages
    .flatMap((l) => l.split(/[+,]/))
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Maps requested languages (codes, `+` or `,` lists of them) onto installed Tesseract data. Returns the languages found (deduplicated,
 * in request order) and the codes that have no installed data package; `auto` is left out of both.
 */
export function resolveOcrLanguages(languages: readonly string[] = ['eng']): { found: LanguageData[]; missing: string[] } {
  const found: LanguageData[] = [];
  const missing: string[] = [];
  for (const raw of splitCodes(languages)) {
    const code = TESSERACT_639_1[raw] ?? raw;
    if (code === AUTO_LANGUAGE || found.some((f) => f.code === code) || missing.includes(code)) continue;
    const data = /^[a-z_]+$/.test(code) ? findLanguage(code) : undefined;
    if (data) found.push(data);
    else missing.push(code);
  }
  return { found, missing };
}

/** The languages for a page of `script` (an OSD script name, or null when OSD found none). */
export interface ScriptLanguages {
  found: LanguageData[];
  /** Set when the script's languages are not installed (or unknown) and `eng` stands in. */
  warning?: string;
}

/**
 * Picks the installed languages for a detected script: every installed language of
 * {@link SCRIPT_LANGUAGES}; none installed or an unknown script: `eng` (for a Chinese, Japanese or
 * Korean script, another installed one of those first), with a warning naming the package to
 * install. No script (too little text for OSD): `eng`, silently.
 */
export function languagesForScript(script: string | null): ScriptLanguages {
  const eng = (): LanguageData[] => resolveOcrLanguages(['eng']).found;
  if (!script) return { found: eng() };
  const candidates = SCRIPT_LANGUAGES[script];
  if (!candidates) return { found: eng(), warning: `OCR detected ${script} script, for which no language is known; read as English (eng)` };
  const { found } = resolveOcrLanguages(candidates);
  if (found.length > 0) return { found };
  const install = `Install ${ocrDataPackage(candidates[0]!)} beside quarry to read it`;
  const standIn = CJK_SCRIPTS.has(script) ? resolveOcrLanguages(CJK_FALLBACK).found[0] : undefined;
  if (standIn)
    return { found: [standIn], warning: `OCR detected ${script} script but no ${script} language data is installed; read with ${standIn.code}. ${install}` };
  return { found: eng(), warning: `OCR detected ${script} script but no ${script} language data is installed; read as English (eng). ${install}` };
}

/** The warning for requested languages without data. */
export function missingLanguagesWarning(missing: readonly string[], used: readonly LanguageData[]): string {
  const packages = missing.map(ocrDataPackage).join(', ');
  return `no OCR data is installed for ${missing.join(', ')}; read with ${used.map((f) => f.code).join('+')} instead. Install ${packages} beside quarry to read ${missing.length > 1 ? 'them' : 'it'}`;
}

/** Another script's installed languages. */
export interface ScriptLanguageSet {
  /** The OSD script name. */
  script: string;
  found: LanguageData[];
}

/**
 * The installed language sets of scripts other than those of `used`, one per set (Korean and
 * Hangul share one), in {@link SCRIPT_LANGUAGES}' order: what a line the page's languages read
 * badly is read again with.
 */
export function otherInstalledScripts(used: readonly LanguageData[]): ScriptLanguageSet[] {
  const usedCodes = new Set(used.map((l) => l.code));
  const sets = new Map<string, ScriptLanguageSet>();
  for (const [script, candidates] of Object.entries(SCRIPT_LANGUAGES)) {
    if (candidates.some((c) => usedCodes.has(c))) continue;
    const { found } = resolveOcrLanguages(candidates);
    const key = found.map((f) => f.code).join('+');
    if (found.length > 0 && !sets.has(key)) sets.set(key, { script, found });
  }
  return [...sets.values()];
}

// OSD script names whose text is written in other or several Unicode scripts.
const UNICODE_SCRIPTS: Readonly<Record<string, readonly string[]>> = {
  Fraktur: ['Latin'],
  Korean: ['Hangul', 'Han'],
  Japanese: ['Hiragana', 'Katakana', 'Han'],
};

/**
 * The share of the letters and digits of `text` written in an OSD script (0 when it has none): a
 * reading with another script's languages that is mostly not in that script is the model's guess
 * at text it does not know (Korean data reads Cyrillic as digits and a few syllables), not a
 * better reading.
 */
export function scriptLetterShare(text: string, script: string): number {
  const names = UNICODE_SCRIPTS[script] ?? [script];
  let pattern: RegExp;
  try {
    pattern = new RegExp(`[${names.map((n) => `\\p{Script=${n}}`).join('')}]`, 'u');
  } catch {
    return 0;
  }
  const letters = [...text].filter((c) => /[\p{L}\p{N}]/u.test(c));
  return letters.length === 0 ? 0 : letters.filter((c) => pattern.test(c)).length / letters.length;
}

/**
 * The package to install for a script none of whose languages is installed, or undefined when one
 * is (or the script is unknown).
 */
export function missingScriptPackage(script: string): string | undefined {
  const candidates = SCRIPT_LANGUAGES[script];
  if (!candidates || resolveOcrLanguages(candidates).found.length > 0) return undefined;
  return ocrDataPackage(candidates[0]!);
}

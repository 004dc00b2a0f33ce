/**
 * Pages in more than one script, under `auto` languages. Script detection names one script per
 * page, and the page is read with its languages; lines in another script come out as confident-
 * looking garbage of low confidence (Hangul read with `eng`: "SO|XFEH, CHO|O|ERR"). Such lines are
 * read again with the installed languages of each other script, and the better reading is kept.
 * Lines no installed language reads well are cut out and their script detected: when it has no
 * installed data, a warning names the package to install.
 */
import type { OcrBox, OcrLine, OcrResult } from './ocr-types.js';
import { stackRegions } from './ocr-crops.js';
import { missingScriptPackage, otherInstalledScripts, scriptLetterShare, type LanguageData } from './ocr-languages.js';

/** Lines below this confidence (0-100) are read again with the other scripts' languages. */
export const LOW_LINE_CONFIDENCE = 60;
// Measured on an English and Korean page: English lines read at 84-96 with eng and under 50 with
// kor, Hangul lines at 0-49 with eng (a lone two-syllable word at 65) and 85-96 with kor; a
// Korean page read with kor has a fifth of its lines under 75 (table cells), a seventh under 60.
// A margin keeps a noisy line as it was.
const BETTER_BY = 15;
// Share of a reading's letters that must be in the script whose languages read it.
const MIN_SCRIPT_SHARE = 0.5;
// Script detection needs a few lines: on one line it names scripts at random (Arabic for a
// half-cut English line).
const MIN_DETECT_LINES = 3;
const MIN_DETECT_CHARS = 40;

/** A region of the image read with a language set. */
export interface RegionReading {
  confidence: number;
  lines: OcrLine[];
}

/** How the lines are read again and their script found: the OCR workers, given by the caller. */
export interface ScriptLineReader {
  read(langs: LanguageData[], box: OcrBox): Promise<RegionReading>;
  detect(image: Uint8Array): Promise<string | null>;
}

/** What {@link rereadOtherScripts} did: languages whose readings were kept, and warnings. */
export interface ScriptLinesOutcome {
  languages: string[];
  warnings: string[];
}

function padded(line: OcrLine): OcrBox {
  const pad = Math.round(Math.max(2, line.rowHeight * 0.25));
  return { x0: Math.max(0, line.bbox.x0 - pad), y0: Math.max(0, line.bbox.y0 - pad), x1: line.bbox.x1 + pad, y1: line.bbox.y1 + pad };
}

function replaceLine(line: OcrLine, reading: RegionReading): void {
  const words = reading.lines.flatMap((l) => l.words).filter((w) => w.text.trim());
  line.words = words;
  line.text = `${words.map((w) => w.text).join(' ')}\n`;
  line.confidence = reading.confidence;
}

/** Rebuilds the texts and word list of a result whose lines changed. */
function retext(result: OcrResult): void {
  for (const block of result.blocks) {
    for (const p of block.paragraphs) p.text = p.lines.map((l) => l.text).join('');
    block.text = block.paragraphs.map((p) => p.text).join('\n');
  }
  result.text = result.blocks.map((b) => b.text).join('\n');
  result.words = result.lines.flatMap((l) => l.words);
}

/**
 * Reads the low-confidence lines of `result` (read with `used`, the languages of `script`) again
 * with each other installed script's languages, in place, and detects the script of the lines none
 * reads well, for a warning when its data is not installed.
 */
export async function rereadOtherScripts(
  image: Uint8Array,
  result: OcrResult,
  used: readonly LanguageData[],
  script: string | null | undefined,
  reader: ScriptLineReader,
): Promise<ScriptLinesOutcome> {
  const outcome: ScriptLinesOutcome = { languages: [], warnings: [] };
  let pending = result.lines.filter((l) => l.confidence < LOW_LINE_CONFIDENCE && /[\p{L}\p{N}]/u.test(l.text));
  if (pending.length === 0) return outcome;
  for (const other of otherInstalledScripts(used)) {
    const langs = other.found;
    const readings = await Promise.all(pending.map((line) => reader.read(langs, padded(line))));
    const still: OcrLine[] = [];
    pending.forEach((line, i) => {
      const reading = readings[i]!;
      const text = reading.lines.map((l) => l.text).join(' ');
      if (reading.confidence >= line.confidence + BETTER_BY && scriptLetterShare(text, other.script) >= MIN_SCRIPT_SHARE) replaceLine(line, reading);
      else still.push(line);
    });
    if (still.length < pending.length) outcome.languages.push(...langs.map((l) => l.code));
    pending = still;
    if (pending.length === 0) break;
  }
  if (outcome.languages.length > 0) retext(result);
  const chars = pending.reduce((n, l) => n + l.text.trim().length, 0);
  if (pending.length < MIN_DETECT_LINES || chars < MIN_DETECT_CHARS) return outcome;
  const strip = await stackRegions(image, pending.map(padded), 20);
  const found = strip ? await reader.detect(strip) : null;
  const install = found && found !== script ? missingScriptPackage(found) : undefined;
  if (install) {
    outcome.warnings.push(
      `OCR found ${pending.length} line${pending.length > 1 ? 's' : ''} in ${found} script but no ${found} language data is installed; read with ${used.map((l) => l.code).join('+')}. Install ${install} beside quarry to read ${pending.length > 1 ? 'them' : 'it'}`,
    );
  }
  return outcome;
}

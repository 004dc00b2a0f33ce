/**
 * Chunker throughput. Run: `node --import tsx packages/nodes/bench/chunk.bench.ts` (it imports the
 * built @quarry/nodes: build first).
 *
 * 1. chunk_by_character against LangChain's RecursiveCharacterTextSplitter, both at 500 characters
 *    without overlap, on the same text (corpus prose in many scripts, repeated): the peer gets it as
 *    one string, ours as the elements made by splitting it at blank lines, as a text partitioner
 *    would. MB = UTF-8 megabytes of the text. Ours returns chunk elements with metadata and ids
 *    (and, on the second line, orig_elements), not bare strings.
 * 2. chunk_by_title on the elements of a 619-page PDF (partitioned once, not timed), max_characters
 *    500, library defaults otherwise (the UDHR text when the PDF cannot be partitioned).
 *
 * Each contender runs in PROCESSES processes of its own, started alternately: warm-up runs, then
 * PROCESS_ROUNDS timed runs. MB/s is the fastest process's median run (`_mean`: its mean run), and
 * `ratio` is ours over the peer's; every process's median is listed, since load on the machine
 * slows some processes throughout. One JSON line per case.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { elementToJSON, elementsFromJSON, errorMessage, type Element } from '@quarry/core';
// The built package, as users import it (not the sources through tsx's loader).
import { chunkByCharacter, chunkByTitle, partitionFile, resolveChunkingOptions } from '@quarry/nodes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const docs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const SOURCES = ['UDHR_first_article_all.txt', 'book-war-and-peace-1p.txt'];
const PDF = 'DA-619p.pdf';
const FALLBACK_TEXT = 'UDHR_first_article_all.txt';
const REPEAT = 16;
const MAX_CHARACTERS = 500;
const PROCESSES = 9;
// Per process: warm-up time (the first runs are slower), then timed runs.
const PROCESS_WARMUP_SECONDS = 1.5;
const PROCESS_ROUNDS = 101;
const PARTITION_FLAG = '--partition-for-title-bench';
const CONTENDER_FLAG = '--chunk-contender';
const TITLE_FLAG = '--chunk-by-title';
// Precedes a child's run times on its stdout.
const CHILD_MARK = '--chunk-timings';

function mean(xs: readonly number[]): number {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function timeOnce(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const load1m = (): number => Number((loadavg()[0] as number).toFixed(2));

const mbS = (mb: number, seconds: number): number => Number((mb / seconds).toFixed(2));

type Contender = 'ours' | 'peer';

interface CharacterCase {
  text: string;
  mb: number;
  elements: Element[];
}

// The text both contenders chunk, and the elements ours is handed; undefined when the corpus is
// missing.
function characterCase(): CharacterCase | undefined {
  if (SOURCES.some((f) => !existsSync(path.join(docs, f)))) return undefined;
  const base = SOURCES.map((f) => readFileSync(path.join(docs, f), 'utf8')).join('\n\n');
  const text = Array.from({ length: REPEAT }, () => base).join('\n\n');
  const elements: Element[] = text
    .split(/\n\s*\n/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .map((t, i) => ({ element_id: String(i), type: 'NarrativeText', text: t, metadata: { filename: 'corpus.txt', languages: ['eng'], page_number: 1 } }));
  return { text, mb: Buffer.byteLength(text, 'utf8') / 1e6, elements };
}

// One contender's run function and a count of the chunks of its last run.
function contender(which: Contender, input: CharacterCase, includeOrig: boolean): { run: () => Promise<number> | number; chunks: () => number } {
  let chunks = 0;
  if (which === 'ours') {
    const options = resolveChunkingOptions('chunk_by_character', { max_characters: MAX_CHARACTERS, include_orig_elements: includeOrig });
    return { run: () => (chunks = chunkByCharacter(input.elements, options).length), chunks: () => chunks };
  }
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: MAX_CHARACTERS, chunkOverlap: 0 });
  return { run: async () => (chunks = (await splitter.splitText(input.text)).length), chunks: () => chunks };
}

interface ProcessTimings {
  seconds: number[];
  chunks: number;
}

// Child mode: times `run` alone in this process (PROCESS_ROUNDS runs after
// PROCESS_WARMUP_SECONDS of warm-up) and prints the run times after CHILD_MARK.
async function timeHere(run: () => unknown, chunks: () => number): Promise<void> {
  const warmUntil = performance.now() + PROCESS_WARMUP_SECONDS * 1000;
  while (performance.now() < warmUntil) await run();
  const seconds: number[] = [];
  for (let round = 0; round < PROCESS_ROUNDS; round++) seconds.push(await timeOnce(run));
  const out: ProcessTimings = { seconds, chunks: chunks() };
  process.stdout.write(`\n${CHILD_MARK}${JSON.stringify(out)}`);
}

// Runs this script in a child process with `args` (a child mode) and returns its run times.
function timeInChild(args: readonly string[]): ProcessTimings {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`timing in a child process (${args.join(' ')}) failed (exit ${child.status})`);
  return JSON.parse(child.stdout.slice(child.stdout.lastIndexOf(CHILD_MARK) + CHILD_MARK.length)) as ProcessTimings;
}

async function characterVsLangChain(): Promise<void> {
  const input = characterCase();
  if (input === undefined) {
    console.log(
      JSON.stringify({ bench: 'chunk', case: 'chunk_by_character vs langchain', skipped: `corpus files not found in ${docs}: ${SOURCES.join(', ')}` }),
    );
    return;
  }
  const { mb } = input;
  for (const includeOrig of [false, true]) {
    const loadBefore = load1m();
    // Isolated: PROCESSES processes per contender, started alternately.
    const perProcess: Record<Contender, ProcessTimings[]> = { ours: [], peer: [] };
    for (let k = 0; k < PROCESSES; k++) {
      const order: Contender[] = k % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours'];
      for (const which of order) perProcess[which].push(timeInChild([CONTENDER_FLAG, which, String(includeOrig)]));
    }
    const processMedians = (which: Contender): number[] => perProcess[which].map((t) => median(t.seconds));
    const processMeans = (which: Contender): number[] => perProcess[which].map((t) => mean(t.seconds));
    // The fastest process of each contender; the median process for comparison.
    const ours = Math.min(...processMedians('ours'));
    const theirs = Math.min(...processMedians('peer'));
    const oursMean = Math.min(...processMeans('ours'));
    const theirsMean = Math.min(...processMeans('peer'));
    const oursMedianProcess = median(processMedians('ours'));
    const theirsMedianProcess = median(processMedians('peer'));
    console.log(
      JSON.stringify({
        bench: 'chunk',
        case: `chunk_by_character max_characters=${MAX_CHARACTERS} include_orig_elements=${includeOrig}`,
        text: `${SOURCES.join(' + ')} joined by blank lines, x${REPEAT}`,
        input_mb: Number(mb.toFixed(3)),
        ours_input: `${input.elements.length} NarrativeText elements: the text split at blank lines`,
        peer_input: 'the same text as one string',
        method: `each contender in ${PROCESSES} processes of its own, started alternately; ${PROCESS_ROUNDS} runs after ${PROCESS_WARMUP_SECONDS} s of warm-up runs per process; MB/s of each contender's fastest process (its median run; _mean: its mean run)`,
        ours_mb_s: mbS(mb, ours),
        ours_chunks: (perProcess.ours[0] as ProcessTimings).chunks,
        peer: `@langchain/textsplitters RecursiveCharacterTextSplitter chunkSize=${MAX_CHARACTERS} chunkOverlap=0`,
        peer_mb_s: mbS(mb, theirs),
        peer_chunks: (perProcess.peer[0] as ProcessTimings).chunks,
        ratio: Number((theirs / ours).toFixed(2)),
        ours_mb_s_mean: mbS(mb, oursMean),
        peer_mb_s_mean: mbS(mb, theirsMean),
        ratio_mean: Number((theirsMean / oursMean).toFixed(2)),
        ours_mb_s_per_process: processMedians('ours').map((sec) => mbS(mb, sec)),
        peer_mb_s_per_process: processMedians('peer').map((sec) => mbS(mb, sec)),
        ratio_median_process: Number((theirsMedianProcess / oursMedianProcess).toFixed(2)),
        load_avg_1m: [loadBefore, load1m()],
      }),
    );
  }
}

interface TitleInput {
  source: string;
  elements: Element[];
  note?: string;
}

// The PDF's elements, or (when PDFs cannot be partitioned here) the fallback text's, with a note.
async function partitionTitleInput(): Promise<TitleInput> {
  try {
    const bytes = new Uint8Array(readFileSync(path.join(docs, PDF)));
    return { source: PDF, elements: await partitionFile(bytes, { filename: PDF, strategy: 'fast' }) };
  } catch (err) {
    const bytes = new Uint8Array(readFileSync(path.join(docs, FALLBACK_TEXT)));
    const elements = await partitionFile(bytes, { filename: FALLBACK_TEXT });
    return { source: FALLBACK_TEXT, elements, note: `fell back to ${FALLBACK_TEXT}: partitioning ${PDF} failed (${errorMessage(err)})` };
  }
}

// Partitions in a child process (this script with PARTITION_FLAG), so that the partitioner's
// caches (over 100 MB for the PDF) stay out of the heaps in which chunking is timed; only the
// element JSON comes back.
function titleInputJson(): string {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), PARTITION_FLAG], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`partitioning for the chunk_by_title bench failed (exit ${child.status})`);
  // The partitioner may log to stdout; the elements follow the marker.
  return child.stdout.slice(child.stdout.lastIndexOf(PARTITION_FLAG) + PARTITION_FLAG.length);
}

function readTitleInput(file: string): TitleInput {
  const input = JSON.parse(readFileSync(file, 'utf8')) as TitleInput;
  return { ...input, elements: elementsFromJSON(input.elements, { source: input.source }) };
}

// Child mode: times chunk_by_title on the elements in `file`.
async function timeTitleHere(file: string): Promise<void> {
  const { elements } = readTitleInput(file);
  let chunks = 0;
  await timeHere(
    () => (chunks = chunkByTitle(elements, { max_characters: MAX_CHARACTERS }).length),
    () => chunks,
  );
}

async function byTitleOnPdf(): Promise<void> {
  if (!existsSync(path.join(docs, PDF)) || !existsSync(path.join(docs, FALLBACK_TEXT))) {
    console.log(JSON.stringify({ bench: 'chunk', case: 'chunk_by_title', skipped: `${PDF} or ${FALLBACK_TEXT} not found in ${docs}` }));
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-chunk-bench-'));
  try {
    const file = path.join(dir, 'elements.json');
    writeFileSync(file, titleInputJson());
    const { source, elements, note } = readTitleInput(file);
    let bytes = 0;
    for (const el of elements) bytes += Buffer.byteLength(el.text, 'utf8');
    const mb = bytes / 1e6;
    const processes = Array.from({ length: PROCESSES }, () => timeInChild([TITLE_FLAG, file]));
    const processMedians = processes.map((t) => median(t.seconds));
    console.log(
      JSON.stringify({
        bench: 'chunk',
        case: `chunk_by_title max_characters=${MAX_CHARACTERS} (library defaults otherwise: combine_text_under_n_chars=${MAX_CHARACTERS}, include_orig_elements=true)`,
        source,
        ...(note ? { note } : {}),
        partition: `partitionFile${source === PDF ? " strategy 'fast'" : ''} in a child process, not timed`,
        input_mb: Number(mb.toFixed(3)),
        input: `${elements.length} elements; MB = UTF-8 megabytes of their text`,
        method: `${PROCESSES} processes of its own, ${PROCESS_ROUNDS} runs after ${PROCESS_WARMUP_SECONDS} s of warm-up runs each; MB/s of the fastest process (its median run; _mean: its mean run)`,
        ours_mb_s: mbS(mb, Math.min(...processMedians)),
        ours_mb_s_mean: mbS(mb, Math.min(...processes.map((t) => mean(t.seconds)))),
        ours_mb_s_per_process: processMedians.map((sec) => mbS(mb, sec)),
        ours_chunks: (processes[0] as ProcessTimings).chunks,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const contenderAt = process.argv.indexOf(CONTENDER_FLAG);
const titleAt = process.argv.indexOf(TITLE_FLAG);
if (contenderAt >= 0) {
  const { run, chunks } = contender(process.argv[contenderAt + 1] as Contender, characterCase() as CharacterCase, process.argv[contenderAt + 2] === 'true');
  await timeHere(run, chunks);
} else if (titleAt >= 0) {
  await timeTitleHere(process.argv[titleAt + 1] as string);
} else if (process.argv.includes(PARTITION_FLAG)) {
  const input = await partitionTitleInput();
  process.stdout.write(`\n${PARTITION_FLAG}${JSON.stringify({ ...input, elements: input.elements.map(elementToJSON) })}`);
} else {
  await characterVsLangChain();
  await byTitleOnPdf();
}

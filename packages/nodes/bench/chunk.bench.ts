/**
 * chunk_by_character throughput against LangChain's RecursiveCharacterTextSplitter on the same
 * text (corpus prose in many scripts), both at 500 characters without overlap. Prints one JSON
 * line per configuration: median MB/s of 5 timed runs after a warm-up, and `ratio` = ours / theirs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from '@quarry/core';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { chunkByCharacter, resolveChunkingOptions } from '../src/chunk/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const docs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const SOURCES = ['UDHR_first_article_all.txt', 'book-war-and-peace-1p.txt'];
const REPEAT = 16;
const RUNS = 5;
const MAX_CHARACTERS = 500;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

// Runs the contenders alternately so that load from other processes hits them alike.
async function timeInterleaved(fns: Array<() => Promise<unknown> | unknown>): Promise<number[][]> {
  for (const fn of fns) await fn();
  const seconds: number[][] = fns.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [j, fn] of fns.entries()) {
      const t0 = process.hrtime.bigint();
      await fn();
      (seconds[j] as number[]).push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
  }
  return seconds;
}

async function main(): Promise<void> {
  const missing = SOURCES.filter((f) => !existsSync(path.join(docs, f)));
  if (missing.length > 0) {
    console.log(JSON.stringify({ bench: 'chunk', skipped: `corpus files not found in ${docs}: ${missing.join(', ')}` }));
    return;
  }
  const base = SOURCES.map((f) => readFileSync(path.join(docs, f), 'utf8')).join('\n\n');
  const text = Array.from({ length: REPEAT }, () => base).join('\n\n');
  const mb = Buffer.byteLength(text, 'utf8') / 1e6;
  const elements: Element[] = text
    .split(/\n\s*\n/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .map((t, i) => ({ element_id: String(i), type: 'NarrativeText', text: t, metadata: { filename: 'corpus.txt', languages: ['eng'], page_number: 1 } }));

  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: MAX_CHARACTERS, chunkOverlap: 0 });
  for (const includeOrig of [false, true]) {
    const options = resolveChunkingOptions('chunk_by_character', { max_characters: MAX_CHARACTERS, include_orig_elements: includeOrig });
    let oursChunks = 0;
    let theirsChunks = 0;
    const [oursRuns, theirsRuns] = await timeInterleaved([
      () => (oursChunks = chunkByCharacter(elements, options).length),
      async () => (theirsChunks = (await splitter.splitText(text)).length),
    ]);
    const ours = median(oursRuns as number[]);
    const theirs = median(theirsRuns as number[]);
    console.log(
      JSON.stringify({
        bench: 'chunk',
        case: `chunk_by_character max_characters=${MAX_CHARACTERS} include_orig_elements=${includeOrig}`,
        input_mb: Number(mb.toFixed(3)),
        elements: elements.length,
        runs: RUNS,
        ours_mb_s: Number((mb / ours).toFixed(2)),
        ours_chunks: oursChunks,
        peer: '@langchain/textsplitters RecursiveCharacterTextSplitter chunkSize=500 chunkOverlap=0',
        peer_mb_s: Number((mb / theirs).toFixed(2)),
        peer_chunks: theirsChunks,
        ratio: Number((theirs / ours).toFixed(2)),
      }),
    );
  }
}

await main();

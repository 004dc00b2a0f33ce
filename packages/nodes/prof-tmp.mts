import { readFileSync } from 'node:fs';
import { chunkByCharacter, resolveChunkingOptions } from '@quarry/nodes';
const docs = '/work/shared/corpus/docs';
const base = ['UDHR_first_article_all.txt', 'book-war-and-peace-1p.txt'].map((f) => readFileSync(`${docs}/${f}`, 'utf8')).join('\n\n');
const text = Array.from({ length: 16 }, () => base).join('\n\n');
const elements: any[] = text.split(/\n\s*\n/).map((t) => t.trim()).filter((t) => t.length > 0)
  .map((t, i) => ({ element_id: String(i), type: 'NarrativeText', text: t, metadata: { filename: 'corpus.txt', languages: ['eng'], page_number: 1 } }));
const options = resolveChunkingOptions('chunk_by_character', { max_characters: 500, include_orig_elements: process.env.ORIG === '1' });
const N = Number(process.env.N ?? 2000);
for (let i = 0; i < 50; i++) chunkByCharacter(elements, options);
const t0 = performance.now();
for (let i = 0; i < N; i++) chunkByCharacter(elements, options);
console.log(((performance.now() - t0) / N).toFixed(3), 'ms/run');

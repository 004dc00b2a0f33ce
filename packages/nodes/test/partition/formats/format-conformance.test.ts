import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFormatConformance, type FormatSample } from '@quarry/nodes/testing';
import { BUILTIN_FORMATS } from '../../../src/partition/formats/index.js';
import { fixture } from './fixtures.js';

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../shared/corpus/docs');
const hasCorpus = existsSync(corpus);
if (!hasCorpus) console.info(`format conformance: ${corpus} is absent; only the generated samples run`);

const text = (filename: string, s: string): FormatSample => ({ filename, bytes: () => new TextEncoder().encode(s) });
const fromCorpus = (...names: string[]): FormatSample[] =>
  hasCorpus ? names.map((filename) => ({ filename, bytes: () => new Uint8Array(readFileSync(path.join(corpus, filename))) })) : [];

const committed = (...names: string[]): FormatSample[] => names.map((filename) => ({ filename, bytes: () => fixture(filename) }));

// Images and HEIC are left out: with any strategy they are OCR'd, seconds per sample. DOC, XLS and
// PPT too: each partition starts LibreOffice (legacy-office.test.ts covers them, damaged files too).
const SAMPLES: Record<string, FormatSample[]> = {
  text: [text('notes.txt', 'Site Notes\n\nThe north face was cut in spring.\n\n- drill\n- split\n'), ...fromCorpus('UDHR_first_article_all.txt')],
  markdown: [text('guide.md', '# Guide\n\nCut along the grain.\n\n* one\n* two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'), ...fromCorpus('codeblock.md')],
  html: [
    text('page.html', '<html><body><h1>Quarry</h1><p>Stone is cut here.</p><ul><li>granite</li></ul></body></html>'),
    ...fromCorpus('example-10k-1p.html'),
  ],
  csv: [text('rows.csv', 'name,tonnes\ngranite,12\nmarble,7\n'), ...fromCorpus('stanley-cups.csv')],
  tsv: [text('rows.tsv', 'name\ttonnes\ngranite\t12\n')],
  json: [text('elements.json', JSON.stringify([{ element_id: 'a', type: 'Title', text: 'Quarry', metadata: {} }]))],
  ndjson: [text('rows.ndjson', '{"name":"granite"}\n{"name":"marble"}\n')],
  xml: [text('site.xml', '<site><name>North face</name><rock>granite</rock></site>'), ...fromCorpus('factbook.xml')],
  eml: [
    text('note.eml', 'From: a@example.org\r\nTo: b@example.org\r\nSubject: Stone\r\nContent-Type: text/plain\r\n\r\nThe blocks ship on Monday.\r\n'),
    ...fromCorpus('fake-email-attachment.eml'),
  ],
  pdf: fromCorpus('multi-column-2p.pdf'),
  docx: fromCorpus('handbook-1p.docx'),
  pptx: fromCorpus('science-exploration-1p.pptx'),
  xlsx: fromCorpus('stanley-cups.xlsx'),
  rtf: committed('unstructured-fake-doc.rtf', 'quarry-report.rtf'),
  rst: committed('unstructured-readme.rst'),
  org: committed('unstructured-readme.org'),
  msg: committed('unstructured-fake-email-attachment.msg'),
};
SAMPLES.eml!.push(...committed('signed-clear.p7s', 'signed-opaque.p7s', 'signed-opaque-der.p7s'));

for (const format of BUILTIN_FORMATS) {
  const samples = SAMPLES[format.name] ?? [];
  // One format checks the trip through a child process (the pool tests cover the others' output).
  if (samples.length > 0) testFormatConformance(format, samples, { childProcess: format.name === 'html' });
}

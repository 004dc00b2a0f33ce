import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runToJsonLines } from '../custom-destination.js';
import { chunkTexts } from '../stream-documents.js';

const exampleDocs = resolve(fileURLToPath(new URL('../docs', import.meta.url)));
// The six committed example documents, without the generated/ folder the demo adds beside them.
let docs: string;
beforeAll(async () => {
  docs = await mkdtemp(join(tmpdir(), 'quarry-stream-example-docs-'));
  for (const entry of await readdir(exampleDocs, { withFileTypes: true })) {
    if (entry.isFile()) await copyFile(join(exampleDocs, entry.name), join(docs, entry.name));
  }
});
const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');
let out: string | undefined;
afterAll(async () => {
  await rm(docs, { recursive: true, force: true });
  if (out) await rm(out, { recursive: true, force: true });
});

describe('examples/stream-documents.ts and examples/custom-destination.ts', () => {
  it('are quoted verbatim by the root and core READMEs', () => {
    for (const readme of [read('../../README.md'), read('../../packages/core/README.md')]) {
      expect(readme).toContain(read('../stream-documents.ts'));
    }
    expect(read('../../packages/core/README.md')).toContain(read('../custom-destination.ts'));
  });

  it('streams every example document chunked, and each in one item', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const texts = await chunkTexts(docs);
      expect([...texts.keys()].sort()).toEqual([
        'field-guide.md',
        'quarterly-notes.html',
        'reading-list.csv',
        'release-checklist.txt',
        'station-log.xml',
        'team-update.eml',
      ]);
      expect(texts.get('field-guide.md')![0]).toMatch(/^Quarry Field Guide/);
      expect([...texts.values()].every((t) => t.length > 0 && t.every((s) => s.length <= 500))).toBe(true);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('throws from the loop when the job cannot run: a source directory that does not exist', async () => {
    await expect(chunkTexts(join(docs, 'no-such-dir'))).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('stops the job when the loop leaves early', async () => {
    const texts = await chunkTexts(docs, 2);
    expect(texts.size).toBe(2);
  });

  it('writes one JSON line per document with a destination of its own, and replaces them on a re-run', async () => {
    out = await mkdtemp(join(tmpdir(), 'quarry-dest-example-'));
    const file = join(out, 'docs.jsonl');
    expect((await runToJsonLines(docs, file)).counts).toMatchObject({ written: 6, failed: 0 });
    expect((await runToJsonLines(docs, file)).counts).toMatchObject({ written: 6, failed: 0 });
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { record_id: string; texts: string[] });
    expect(lines.map((l) => l.record_id).sort()).toEqual([
      'field-guide.md',
      'quarterly-notes.html',
      'reading-list.csv',
      'release-checklist.txt',
      'station-log.xml',
      'team-update.eml',
    ]);
    expect(lines.find((l) => l.record_id === 'field-guide.md')!.texts[0]).toBe('Quarry Field Guide');
  });
});

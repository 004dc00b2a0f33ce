import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { elementToJSON, parseSettings, type DestinationConnector, type Element } from '@quarry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDestination, outputPathFor } from '../../src/local/local-destination.js';
import { localSource } from '../../src/local/local-source.js';
import { conformanceDocument, conformanceElements, testDestinationConformance } from '@quarry/connectors/testing';
import { createDestination, createSource, failureOf, listAll, makeTempDir, removeDir, writeTree } from '../support.js';

async function readOutput(dir: string, recordId: string): Promise<Array<Record<string, unknown>> | undefined> {
  try {
    return JSON.parse(await readFile(`${path.join(dir, ...recordId.split('/'))}.json`, 'utf8')) as Array<Record<string, unknown>>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

for (const indent of [2, 0]) {
  testDestinationConformance(
    `local (indent: ${indent})`,
    async () => {
      const root = await makeTempDir();
      const dir = path.join(root, 'out');
      return { destination: await createDestination(localDestination, { path: dir, indent }), target: dir, cleanup: () => removeDir(root) };
    },
    readOutput,
  );
}

/** Every file under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

const signal = new AbortController().signal;

describe('localDestination', () => {
  let root: string;
  let out: string;
  let dest: DestinationConnector;
  beforeEach(async () => {
    root = await makeTempDir();
    out = path.join(root, 'out');
    dest = await createDestination(localDestination, { path: out });
  });
  afterEach(() => removeDir(root));

  const write = (recordId: string, elements: Element[]) => dest.write({ document: conformanceDocument(recordId), elements }, { signal });

  it('has config defaults json and 2-space indentation, and rejects unknown keys and formats', () => {
    expect(parseSettings(localDestination.config, { path: 'out' })).toEqual({ ok: true, value: { path: 'out', format: 'json', indent: 2 } });
    const bad = parseSettings(localDestination.config, { path: 'out', format: 'ndjson', output_dir: 'x' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.map((p) => p.path).sort()).toEqual(['', '/format']);
  });

  it('prepare creates the output directory, nested, and is idempotent', async () => {
    const deep = await createDestination(localDestination, { path: path.join(root, 'a', 'b', 'c') });
    await deep.prepare?.({ nodes: [] });
    await deep.prepare?.({ nodes: [] });
    expect(await readdir(path.join(root, 'a', 'b'))).toEqual(['c']);
  });

  it('prepare fails with DESTINATION_UNAVAILABLE when the path is a file', async () => {
    const file = path.join(root, 'file.txt');
    await writeFile(file, 'x');
    const e = await failureOf((await createDestination(localDestination, { path: file })).prepare!({ nodes: [] }));
    expect(e.code).toBe('DESTINATION_UNAVAILABLE');
    expect(e.message).toContain(file);
  });

  it('writes <record_id>.json, keeping sub-directories so equal names do not collide', async () => {
    await write('report.pdf', conformanceElements('report.pdf', 1));
    await write('a/report.pdf', conformanceElements('a/report.pdf', 2));
    await write('b/c/report.pdf', conformanceElements('b/c/report.pdf', 3));
    expect(await tree(out)).toEqual(['a/report.pdf.json', 'b/c/report.pdf.json', 'report.pdf.json']);
    expect(await readOutput(out, 'b/c/report.pdf')).toHaveLength(3);
  });

  it('writes a 2-space indented array of element JSON, in element order, ending in a newline', async () => {
    const elements = conformanceElements('doc.txt', 3).reverse();
    elements[0]!.metadata.parent_id = undefined;
    await write('doc.txt', elements);
    const text = await readFile(path.join(out, 'doc.txt.json'), 'utf8');
    expect(text).toBe(`${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`);
    expect(text.startsWith('[\n  {\n    "type": "NarrativeText",\n    "element_id"')).toBe(true);
    expect(text).not.toContain('parent_id');
  });

  it('writes one line with indent 0, and [] for a document without elements', async () => {
    const compact = await createDestination(localDestination, { path: out, indent: 0 });
    await compact.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 2) }, { signal });
    await compact.write({ document: conformanceDocument('empty.txt'), elements: [] }, { signal });
    expect((await readFile(path.join(out, 'a.txt.json'), 'utf8')).trimEnd()).not.toContain('\n');
    expect(await readFile(path.join(out, 'empty.txt.json'), 'utf8')).toBe('[]\n');
  });

  it('leaves no temp file behind after writes', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(`d/${i}.txt`, conformanceElements(`d/${i}.txt`, 2))));
    await write('d/3.txt', conformanceElements('d/3.txt', 1, 'v2'));
    const all = await readdir(out, { recursive: true });
    expect(all.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await tree(out)).toHaveLength(10);
  });

  it('fails with DESTINATION_WRITE_FAILED when the file cannot be put in place, and cleans up', async () => {
    // A non-empty directory where the output file belongs: the temp file is written, the rename fails.
    await mkdir(path.join(out, 'x.txt.json'), { recursive: true });
    await writeFile(path.join(out, 'x.txt.json', 'keep'), 'k');
    const e = await failureOf(write('x.txt', conformanceElements('x.txt', 2)));
    expect(e.code).toBe('DESTINATION_WRITE_FAILED');
    expect(e.details).toMatchObject({ record_id: 'x.txt', path: path.join(out, 'x.txt.json') });
    expect(e.cause).toBeDefined();
    expect(await tree(out)).toEqual(['x.txt.json/keep']);
  });

  it('keeps the previous output when a re-write cannot be serialized', async () => {
    const good = conformanceElements('a.txt', 2);
    await write('a.txt', good);
    const bad = conformanceElements('a.txt', 1, 'v2');
    (bad[0]!.metadata as Record<string, unknown>).size = 10n;
    const e = await failureOf(write('a.txt', bad));
    expect(e.code).toBe('DESTINATION_WRITE_FAILED');
    expect(await readOutput(out, 'a.txt')).toEqual(good.map(elementToJSON));
    expect(await tree(out)).toEqual(['a.txt.json']);
  });

  it.each(['../escape.txt', '/etc/passwd', 'a//b.txt', './a.txt', 'a/../../b.txt', '', 'nul\0.txt'])(
    'refuses record_id %j, which could write outside the output directory',
    async (recordId) => {
      await dest.prepare?.({ nodes: [] });
      const e = await failureOf(write(recordId, conformanceElements('x', 1)));
      expect(e.code).toBe('DESTINATION_WRITE_FAILED');
      expect(await readdir(root)).toEqual(['out']);
      expect(await tree(out)).toEqual([]);
    },
  );

  it('names outputs exactly like the reference ingest uploader: input path relative to the root + .json', () => {
    expect(outputPathFor('/o', 'report.pdf')).toBe(path.join('/o', 'report.pdf.json'));
    expect(outputPathFor('/o', 'nested-2/stanley-cups.xlsx')).toBe(path.join('/o', 'nested-2', 'stanley-cups.xlsx.json'));
  });

  it('replaces the outputs of a re-run from the local source without duplicating them', async () => {
    const input = path.join(root, 'in');
    await writeTree(input, { 'a.txt': 'one\n\ntwo\n\nthree', 'sub/a.txt': 'x' });
    const run = async () => {
      const source = await createSource(localSource, { path: input });
      await dest.prepare?.({ nodes: [] });
      for (const doc of await listAll(source)) {
        const text = new TextDecoder().decode(await doc.read());
        const elements: Element[] = text.split('\n\n').map((t, i) => ({
          element_id: `${doc.version?.slice(0, 8)}-${i}`,
          type: 'NarrativeText',
          text: t,
          metadata: { filename: doc.filename, data_source: doc.data_source },
        }));
        await dest.write({ document: doc, elements }, { signal });
      }
    };
    await run();
    await writeFile(path.join(input, 'a.txt'), 'only one');
    await run();
    expect(await tree(out)).toEqual(['a.txt.json', 'sub/a.txt.json']);
    expect((await readOutput(out, 'a.txt'))?.map((e) => e.text)).toEqual(['only one']);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementsFromJSON, isQuarryError, type Plugin } from '@quarry/core';
import { chunk } from '@quarry/nodes';
import { runChunkCommand } from '../../src/commands/chunk.js';
import { runCli } from '../run-cli.js';

// A chunker added from outside: one file (the node), registered by a plugin; nothing else lists it.
const pluginFile = fileURLToPath(new URL('../support/sentence-chunker.mjs', import.meta.url));

const doc = [
  { type: 'Title', text: 'Field notes', metadata: { filename: 'notes.txt' } },
  { type: 'NarrativeText', text: 'The quarry opened in spring. Stone went north by rail! Who bought it?', metadata: { filename: 'notes.txt' } },
];
const sentences = ['Field notes', 'The quarry opened in spring.', 'Stone went north by rail!', 'Who bought it?'];

let dir = '';
let docFile = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-chunk-plugin-'));
  docFile = join(dir, 'elements.json');
  await writeFile(docFile, JSON.stringify(doc));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a chunker registered by a plugin', () => {
  it('runs through the chunk helper by its subtype and its alias, with its settings checked', async () => {
    const plugin = (await import(pluginFile)) as { default: Plugin };
    const elements = elementsFromJSON(doc, { source: 'doc' });
    const chunks = await chunk(elements, 'chunk_by_sentence', {}, { plugins: [plugin.default] });
    expect(chunks.map((c) => [c.type, c.text])).toEqual(sentences.map((s) => ['CompositeElement', s]));
    expect((await chunk(elements, 'by_sentence', { max_characters: 9 }, { plugins: [plugin.default] })).map((c) => c.text)).toEqual(
      sentences.map((s) => s.slice(0, 9)),
    );
    const bad = await chunk(elements, 'by_sentence', { max_characters: 0 }, { plugins: [plugin.default] }).catch((e: unknown) => e);
    expect(isQuarryError(bad) && bad.code).toBe('SETTINGS_INVALID');
    // Without the plugin the name is unknown, and the message lists what is registered.
    const unknown = await chunk(elements, 'by_sentence').catch((e: unknown) => e);
    expect(isQuarryError(unknown) && unknown.message).toMatch(/^unknown chunker "by_sentence": expected one of chunk_by_character \(basic\)/);
  });

  it('runs through quarry chunk --plugin, in process and as a process, and is listed for a wrong name', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    expect(await runChunkCommand(docFile, { subtype: 'by_sentence', plugin: [pluginFile] }, { stdin: new PassThrough(), stdout })).toBe(0);
    expect((JSON.parse(out) as Array<{ text: string }>).map((c) => c.text)).toEqual(sentences);

    const r = await runCli(['chunk', docFile, '--subtype', 'chunk_by_sentence', '--plugin', pluginFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ text: string }>).map((c) => c.text)).toEqual(sentences);

    const wrong = await runCli(['chunk', docFile, '--subtype', 'by_word', '--plugin', pluginFile]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^quarry: unknown chunker "by_word": expected one of .*chunk_by_sentence \(by_sentence\)/);
    const notPlugin = await runCli(['chunk', docFile, '--subtype', 'basic', '--plugin', docFile]);
    expect(notPlugin.code).toBe(2);
    expect(notPlugin.stderr).toMatch(/--plugin .*elements\.json/);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChunkCommand, type ChunkCommandOptions } from '../../src/commands/chunk.js';
import { UserError } from '../../src/user-error.js';
import { ROOT, runCli } from '../run-cli.js';

interface JsonElement {
  type: string;
  element_id: string;
  text: string;
  metadata: Record<string, unknown>;
}

interface ReferenceCase {
  name: string;
  strategy: 'basic' | 'by_title';
  options: Record<string, unknown>;
  input: unknown[];
  expected: Array<{ type: string; text: string }>;
}

const casesDir = join(ROOT, '..', 'shared', 'chunking');

function loadCases(file: string): ReferenceCase[] {
  const full = join(casesDir, file);
  return existsSync(full) ? (JSON.parse(readFileSync(full, 'utf8')) as { cases: ReferenceCase[] }).cases : [];
}

/** Runs the command in-process with `input` on stdin; resolves with exit code and stdout. */
async function run(file: string | undefined, opts: ChunkCommandOptions, input = ''): Promise<{ code: number; stdout: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  stdin.end(input);
  const code = await runChunkCommand(file, opts, { stdin, stdout });
  return { code, stdout: out };
}

/** The UserError message a run fails with. */
async function userError(file: string | undefined, opts: ChunkCommandOptions, input = ''): Promise<string> {
  const err = await run(file, opts, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  expect((err as UserError).exitCode).toBe(2);
  return (err as UserError).message;
}

const doc = [
  { type: 'Title', text: 'Introduction', metadata: { filename: 'a.txt', page_number: 1, languages: ['eng'] } },
  { type: 'NarrativeText', text: 'Lorem ipsum dolor sit amet consectetur adipiscing elit.', metadata: { filename: 'a.txt', page_number: 1 } },
  { type: 'Title', text: 'Methods', metadata: { filename: 'a.txt', page_number: 2 } },
  { type: 'NarrativeText', text: 'In rhoncus ipsum sed lectus porta volutpat.', metadata: { filename: 'a.txt', page_number: 2 } },
];

let dir: string;
let docFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-chunk-'));
  docFile = join(dir, 'doc.json');
  await writeFile(docFile, JSON.stringify(doc));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('quarry chunk', () => {
  it('prints the chunk array of an element file as element JSON', async () => {
    const r = await run(docFile, { subtype: 'chunk_by_title', settings: '{"combine_text_under_n_chars": 0}' });
    expect(r.code).toBe(0);
    const chunks = JSON.parse(r.stdout) as JsonElement[];
    expect(chunks.map((c) => [c.type, c.text])).toEqual([
      ['CompositeElement', 'Introduction\n\nLorem ipsum dolor sit amet consectetur adipiscing elit.'],
      ['CompositeElement', 'Methods\n\nIn rhoncus ipsum sed lectus porta volutpat.'],
    ]);
    expect(Object.keys(chunks[0] as object)).toEqual(['type', 'element_id', 'text', 'metadata']);
    expect(chunks[0]?.element_id).toMatch(/^[0-9a-f-]{36}$/);
    // Node defaults (SPEC.md): no orig_elements.
    expect(chunks[0]?.metadata).toEqual({ filename: 'a.txt', page_number: 1, languages: ['eng'] });
  });

  it('reads stdin when FILE is - or absent', async () => {
    const a = await run('-', { subtype: 'chunk_by_character', settings: '{"max_characters": 60}' }, JSON.stringify(doc));
    const b = await run(undefined, { subtype: 'chunk_by_character', settings: '{"max_characters": 60}' }, JSON.stringify(doc));
    const texts = (out: string) => (JSON.parse(out) as JsonElement[]).map((c) => c.text);
    // 12 + 2 + 55 and 55 + 2 + 7 exceed 60; 7 + 2 + 43 fits.
    expect(texts(a.stdout)).toEqual([
      'Introduction',
      'Lorem ipsum dolor sit amet consectetur adipiscing elit.',
      'Methods\n\nIn rhoncus ipsum sed lectus porta volutpat.',
    ]);
    expect(texts(b.stdout)).toEqual(texts(a.stdout));
  });

  it('accepts the reference strategy and option names', async () => {
    const texts = async (opts: ChunkCommandOptions) => (JSON.parse((await run(docFile, opts)).stdout) as JsonElement[]).map((c) => c.text);
    expect(await texts({ subtype: 'basic', settings: '{"chunk_max_characters": 70}' })).toEqual(
      await texts({ subtype: 'chunk_by_character', settings: '{"max_characters": 70}' }),
    );
    // combine_under_n_chars (the API form name) is combine_text_under_n_chars.
    const merged = await texts({ subtype: 'by_title', settings: '{"combine_under_n_chars": 500}' });
    expect(merged).toEqual([doc.map((e) => e.text).join('\n\n')]);
    expect(await texts({ subtype: 'chunk_by_title', settings: '{"combine_text_under_n_chars": 500}' })).toEqual(merged);
    expect(await texts({ subtype: 'by_page' })).toEqual(await texts({ subtype: 'chunk_by_page' }));
    expect(await texts({ subtype: 'by_page' })).toHaveLength(2);
  });

  it('includes orig_elements as element JSON when asked', async () => {
    const r = await run(docFile, { subtype: 'chunk_by_page', settings: '{"include_orig_elements": true}' });
    const [first] = JSON.parse(r.stdout) as JsonElement[];
    const orig = first?.metadata.orig_elements as JsonElement[];
    expect(orig.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'Introduction'],
      ['NarrativeText', 'Lorem ipsum dolor sit amet consectetur adipiscing elit.'],
    ]);
  });

  it('rejects bad input with one clear message and exit code 2', async () => {
    expect(await userError(docFile, { subtype: 'by_section' })).toBe(
      'unknown chunker "by_section": expected one of chunk_by_character (basic), chunk_by_page (by_page), chunk_by_similarity (by_similarity), chunk_by_title (by_title)',
    );
    expect(await userError(docFile, {})).toMatch(/^--subtype is required/);
    expect(await userError(docFile, { subtype: 'chunk_by_similarity' })).toMatch(/needs an embedding model/);
    expect(await userError(docFile, { subtype: 'basic', settings: '{max_characters: 5}' })).toMatch(/^--settings is not valid JSON/);
    expect(await userError(docFile, { subtype: 'basic', settings: '[1]' })).toBe('--settings must be a JSON object, got [1]');
    expect(await userError(docFile, { subtype: 'basic', settings: '{"max_characters": 0}' })).toBe(
      "invalid chunk_by_character settings: max_characters: 'max_characters' argument must be > 0, got 0",
    );
    expect(await userError(docFile, { subtype: 'by_title', settings: '{"max_characters": 450, "combine_under_n_chars": 600}' })).toContain(
      "'combine_text_under_n_chars' argument must not exceed `max_characters` value, got 600 > 450",
    );
    expect(await userError(docFile, { subtype: 'basic', settings: '{"multipage_sections": true}' })).toMatch(
      /^invalid chunk_by_character settings: .*multipage_sections/,
    );
    expect(await userError(docFile, { subtype: 'basic', settings: '{"max_characters": "500"}' })).toMatch(
      /^invalid chunk_by_character settings: max_characters: /,
    );
    expect(await userError(docFile, { subtype: 'basic', settings: '{"max_characters": 500, "chunk_max_characters": 400}' })).toMatch(/max_characters twice/);
    expect(await userError(undefined, { subtype: 'basic' }, '[{"type": "Title"')).toMatch(/^stdin is not valid JSON/);
    expect(await userError(undefined, { subtype: 'basic' }, '{"type": "Title"}')).toBe('stdin must hold a JSON array of elements');
    expect(await userError(undefined, { subtype: 'basic' }, '[{"type": "Nonsense", "text": "x"}]')).toMatch(/unknown element type "Nonsense"/);
    expect(await userError(join(dir, 'missing.json'), { subtype: 'basic' })).toMatch(/^file not found/);
  });

  it('answers every JSONL request on its own line; a bad line does not stop later ones', async () => {
    const lines = [
      JSON.stringify({ subtype: 'basic', settings: { max_characters: 60 }, elements: doc }),
      '{"subtype": "basic", "elements": [',
      '',
      JSON.stringify({ subtype: 'by_chapter', elements: doc }),
      JSON.stringify({ subtype: 'by_title', settings: { max_characters: 0 }, elements: doc }),
      JSON.stringify({ subtype: 'by_title', elements: [{ type: 'Title' }, { type: 'Bogus', text: 'x' }] }),
      JSON.stringify({ subtype: 'by_title' }),
      '[1, 2]',
      JSON.stringify({ elements: doc, settings: { combine_text_under_n_chars: 0 } }),
    ];
    const r = await run(undefined, { jsonl: true, subtype: 'chunk_by_title', settings: '{"max_characters": 200}' }, `${lines.join('\n')}\n`);
    expect(r.code).toBe(1);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { chunks?: JsonElement[]; error?: { code: string; message: string } });
    expect(out).toHaveLength(8);
    expect(out[0]?.chunks?.map((c) => c.text)).toEqual([
      'Introduction',
      'Lorem ipsum dolor sit amet consectetur adipiscing elit.',
      'Methods\n\nIn rhoncus ipsum sed lectus porta volutpat.',
    ]);
    expect(out[1]?.error?.code).toBe('INVALID_ARGUMENT');
    expect(out[1]?.error?.message).toMatch(/^request is not valid JSON/);
    expect(out[2]?.error).toMatchObject({
      code: 'SETTINGS_INVALID',
      message: expect.stringMatching(/^unknown chunker "by_chapter": expected one of chunk_by_character \(basic\),/) as unknown,
    });
    expect(out[3]?.error).toEqual({
      code: 'SETTINGS_INVALID',
      message: "invalid chunk_by_title settings: max_characters: 'max_characters' argument must be > 0, got 0",
    });
    expect(out[4]?.error).toMatchObject({ code: 'ELEMENT_INVALID' });
    expect(out[5]?.error).toEqual({ code: 'INVALID_ARGUMENT', message: 'request needs "elements": an element array' });
    expect(out[6]?.error?.code).toBe('INVALID_ARGUMENT');
    // No subtype on the line: --subtype applies; settings merge over --settings.
    expect(out[7]?.chunks?.map((c) => c.text)).toEqual([
      'Introduction\n\nLorem ipsum dolor sit amet consectetur adipiscing elit.',
      'Methods\n\nIn rhoncus ipsum sed lectus porta volutpat.',
    ]);
  });

  it('exits 0 in JSONL mode when every request succeeds, reading a file', async () => {
    const file = join(dir, 'requests.jsonl');
    await writeFile(file, `${JSON.stringify({ subtype: 'basic', elements: doc })}\r\n${JSON.stringify({ subtype: 'basic', elements: [] })}\r\n`);
    const r = await run(file, { jsonl: true });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { chunks: unknown[] }).chunks.length),
    ).toEqual([1, 0]);
  });
});

describe.skipIf(!existsSync(join(casesDir, 'cases.json')))(`quarry chunk --jsonl replays the reference cases (needs ${casesDir})`, () => {
  it('gives the reference chunks for every case of cases.json and 40 of random-cases.json', async () => {
    const cases = [...loadCases('cases.json'), ...loadCases('random-cases.json').slice(0, 40)];
    const input = cases.map((c) => JSON.stringify({ subtype: c.strategy, settings: c.options, elements: c.input })).join('\n');
    const r = await run(undefined, { jsonl: true }, input);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { chunks: JsonElement[] });
    expect(out).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      expect({ name: c.name, chunks: out[i]?.chunks?.map((ch) => ({ type: ch.type, text: ch.text })) }).toEqual({ name: c.name, chunks: c.expected });
    });
    expect(r.code).toBe(0);
  });
});

describe('quarry chunk as a process', () => {
  it.skipIf(!existsSync(join(casesDir, 'cases.json')))('replays reference cases through stdin and stdout with --jsonl', async () => {
    const cases = loadCases('cases.json').slice(0, 6);
    const input = `${cases.map((c) => JSON.stringify({ subtype: c.strategy, settings: c.options, elements: c.input })).join('\n')}\n`;
    const r = await runCli(['chunk', '--jsonl'], { input });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { chunks: JsonElement[] });
    expect(out.map((o) => o.chunks.map((ch) => ({ type: ch.type, text: ch.text })))).toEqual(cases.map((c) => c.expected));
  });

  it('prints one quarry: line and exits 2 for an unknown subtype', async () => {
    const r = await runCli(['chunk', '--subtype', 'nope'], { input: '[]' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^quarry: unknown chunker "nope": expected one of chunk_by_character \(basic\), [^\n]*\n$/);
  });
});

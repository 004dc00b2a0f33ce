import { spawnSync } from 'node:child_process';
import { mkdtemp, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, textLines } from '../../../nodes/test/partition/formats/pdf/fixture.js';
import { hostileFiles } from '../../../nodes/test/support/hostile-files.js';
import { BIN, ROOT, runCli } from '../run-cli.js';

// util-linux's prlimit caps the size of the files a process (and its children) may write.
const prlimit = spawnSync('prlimit', ['--version']).status === 0;

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-partition-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('quarry partition', () => {
  it('prints the element array for one file', async () => {
    const r = await runCli(['partition', 'examples/docs/field-guide.md', '--strategy', 'fast', '--no-unique-element-ids']);
    expect(r.code).toBe(0);
    const els = JSON.parse(r.stdout) as Array<{ type: string; element_id: string; metadata: { filename: string; filetype: string } }>;
    expect(els[0]).toMatchObject({ type: 'Title', metadata: { filename: 'field-guide.md', filetype: 'text/markdown' } });
    expect(els[0]!.element_id).toMatch(/^[0-9a-f]{32}$/);
    expect(els.map((e) => e.type)).toEqual(expect.arrayContaining(['ListItem', 'CodeSnippet', 'Table', 'NarrativeText']));
  });

  it('writes <name>.json per file into --output and goes on past a broken file', async () => {
    const broken = join(dir, 'broken.docx');
    // A zip local-file header followed by garbage: detected as a zip container, unreadable as DOCX.
    await writeFile(broken, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    const out = join(dir, 'out');
    const r = await runCli(['partition', 'examples/docs/reading-list.csv', broken, 'examples/docs/team-update.eml', '--output', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.docx: [A-Z_]+: /);
    expect(r.stderr).toContain('2 partitioned, 1 failed');
    expect((await readdir(out)).sort()).toEqual(['reading-list.csv.json', 'team-update.eml.json']);
    const eml = JSON.parse(await readFile(join(out, 'team-update.eml.json'), 'utf8')) as Array<{ metadata: Record<string, unknown> }>;
    expect(eml[0]!.metadata).toMatchObject({ subject: 'Nightly runs moved to 02:00', filetype: 'message/rfc822' });
  });

  it('keeps every other file when hostile ones fail, naming each failure with its code', async () => {
    const chosen = hostileFiles().filter((f) =>
      ['huge-header.png', 'corrupt-palette.png', 'bad-huffman.jpg', 'cff-charset-loop.pdf', 'hundred-thousand-pages.pdf'].includes(f.name),
    );
    const paths = await Promise.all(
      chosen.map(async (f) => {
        const path = join(dir, f.name);
        await writeFile(path, f.bytes);
        return path;
      }),
    );
    const out = join(dir, 'out-hostile');
    // Good files before, between and after: a failure must not lose any of them.
    const r = await runCli([
      'partition',
      'examples/docs/reading-list.csv',
      ...paths.slice(0, 2),
      'examples/docs/field-guide.md',
      ...paths.slice(2),
      'examples/docs/team-update.eml',
      '--output',
      out,
      '--strategy',
      'fast',
      '--document-timeout',
      '15',
    ]);
    expect(r.code).toBe(1);
    // The CFF font that looped pdf.js forever falls back to a substitute: its text is read.
    expect((await readdir(out)).sort()).toEqual(['cff-charset-loop.pdf.json', 'field-guide.md.json', 'reading-list.csv.json', 'team-update.eml.json']);
    // The images crashed their process before their headers were checked and libvips decoded them.
    expect(r.stderr).toContain(`quarry: ${join(dir, 'huge-header.png')}: FILE_TOO_LARGE: huge-header.png: 2500000000 pixels, over the limit`);
    for (const name of ['corrupt-palette.png', 'bad-huffman.jpg'])
      expect(r.stderr).toContain(`quarry: ${join(dir, name)}: FILE_UNREADABLE: ${name}: not a readable image (`);
    expect(r.stderr).toContain(
      `quarry: ${join(dir, 'hundred-thousand-pages.pdf')}: DOCUMENT_TOO_COMPLEX: hundred-thousand-pages.pdf: 100000 pages, over the limit of 10000 pages`,
    );
    expect(r.stderr).toContain('4 partitioned, 4 failed');
  }, 120_000);

  it('writes into --output the bytes it prints without it', async () => {
    const out = join(dir, 'out-same');
    const printed = await runCli(['partition', 'examples/docs/field-guide.md', '--no-unique-element-ids']);
    const written = await runCli(['partition', 'examples/docs/field-guide.md', '--no-unique-element-ids', '--output', out]);
    expect([printed.code, written.code]).toEqual([0, 0]);
    expect(await readFile(join(out, 'field-guide.md.json'), 'utf8')).toBe(printed.stdout);
  });

  // A regular file goes to the partition process by path; standard input is read by the command.
  it('reads /dev/stdin redirected from a file, from a shell pipe or from a socket', async () => {
    const guide = join(ROOT, 'examples/docs/field-guide.md');
    const source = await open(guide, 'r');
    const redirected = spawnSync(process.execPath, [BIN, 'partition', '/dev/stdin', '--no-unique-element-ids'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: [source.fd, 'pipe', 'pipe'],
    });
    await source.close();
    const piped = spawnSync('sh', ['-c', 'cat "$1" | "$2" "$3" partition /dev/stdin --no-unique-element-ids', 'sh', guide, process.execPath, BIN], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // Node gives a spawned child's piped stdin as a Unix socket, which cannot be opened by name (ENXIO).
    const socketed = spawnSync(process.execPath, [BIN, 'partition', '/dev/stdin', '--no-unique-element-ids'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: await readFile(guide, 'utf8'),
    });
    expect([redirected.status, piped.status, socketed.status], redirected.stderr + piped.stderr + socketed.stderr).toEqual([0, 0, 0]);
    expect((JSON.parse(redirected.stdout) as Array<{ text: string }>)[0]!.text).toContain('Quarry Field Guide');
    expect(piped.stdout).toBe(redirected.stdout);
    expect(socketed.stdout).toBe(redirected.stdout);
  });

  it.runIf(prlimit)('fails a file whose output cannot be written with DESTINATION_WRITE_FAILED, and leaves no part of it', async () => {
    const out = join(dir, 'out-capped');
    const text = join(dir, 'long.txt');
    await writeFile(text, Array.from({ length: 800 }, (_, i) => `Paragraph ${i} is long enough to be narrative text in the output.`).join('\n\n'));
    // Files of at most 64 KiB: the process's write of the element JSON fails part-way (EFBIG).
    const r = spawnSync('prlimit', ['--fsize=65536', process.execPath, BIN, 'partition', text, 'examples/docs/field-guide.md', '--output', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`quarry: ${text}: DESTINATION_WRITE_FAILED: cannot write ${join(out, 'long.txt.json')}: EFBIG: file too large`);
    expect(r.stderr).toContain('1 partitioned, 1 failed');
    expect(await readdir(out)).toEqual(['field-guide.md.json']);
  });

  it('needs --output for several files and a known strategy', async () => {
    expect((await runCli(['partition', 'examples/docs/reading-list.csv', 'examples/docs/field-guide.md'])).stderr).toBe(
      'quarry: --output DIR is required when partitioning several files\n',
    );
    expect((await runCli(['partition', 'examples/docs/reading-list.csv', '--strategy', 'magic'])).code).toBe(2);
  });

  it('reads a PDF with either engine (--pdf-engine), the same elements from both', async () => {
    const pdf = join(dir, 'memo.pdf');
    await writeFile(
      pdf,
      makePdf([{ texts: [{ x: 72, y: 600, size: 18, text: 'Memo', bold: true }, ...textLines(['The meeting moved to Friday.'], 72, 11, 560)] }]),
    );
    const read = async (engine: string): Promise<Array<{ type: string; text: string }>> => {
      const r = await runCli(['partition', pdf, '--strategy', 'fast', '--pdf-engine', engine]);
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ type: string; text: string }>).map(({ type, text }) => ({ type, text }));
    };
    const pdfium = await read('pdfium');
    expect(pdfium).toEqual([
      { type: 'Title', text: 'Memo' },
      { type: 'NarrativeText', text: 'The meeting moved to Friday.' },
    ]);
    expect(await read('pdfjs')).toEqual(pdfium);
    const bad = await runCli(['partition', pdf, '--pdf-engine', 'mupdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('quarry: --pdf-engine must be one of pdfium, pdfjs, got "mupdf"\n');
  });
});

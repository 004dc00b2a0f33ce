import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textImage } from '../../../nodes/test/support/text-image.js';
import { runCli } from '../run-cli.js';

let dir: string;
let scan: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-ocr-warnings-'));
  await mkdir(join(dir, 'in'));
  scan = join(dir, 'in', 'scan.png');
  await writeFile(scan, await textImage(['Scanned invoice number 42', 'Total due within thirty days']));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

// jpn stands for any requested language without data: the warning must reach the user.
describe('an OCR language without installed data', () => {
  it('quarry partition: a warning on stderr and in metadata.ocr_warnings, and English text still read', async () => {
    const r = await runCli(['partition', scan, '--ocr-languages', 'eng,jpn']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^quarry: warning: .*scan\.png: no OCR data is installed for jpn; read with eng instead\. Install @tesseract\.js-data\/jpn beside quarry/m,
    );
    const elements = JSON.parse(r.stdout) as Array<{ text: string; metadata: { ocr_warnings?: string[] } }>;
    expect(elements.map((e) => e.text).join(' ')).toContain('Scanned invoice number 42');
    expect(elements.every((e) => e.metadata.ocr_warnings?.[0]?.includes('@tesseract.js-data/jpn'))).toBe(true);
  }, 120_000);

  it('quarry run: a document_warning in the job summary, and on stderr', async () => {
    const wf = join(dir, 'wf.json');
    await writeFile(
      wf,
      JSON.stringify({
        name: 'ocr-warnings',
        workflow_type: 'custom',
        workflow_nodes: [
          { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res', ocr_languages: ['eng', 'jpn'] } },
        ],
      }),
    );
    const output = join(dir, 'out');
    const r = await runCli(['run', wf, '--input', join(dir, 'in'), '--output', output, '--no-progress', '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { warnings?: Array<Record<string, unknown>> };
    expect(summary.warnings).toEqual([
      {
        record_id: expect.stringContaining('scan.png'),
        filename: 'scan.png',
        node: 'Partitioner',
        message: expect.stringContaining('@tesseract.js-data/jpn'),
        details: { filename: 'scan.png', pages: [1] },
      },
    ]);
    expect(r.stderr).toContain('no OCR data is installed for jpn');
    const elements = JSON.parse(await readFile(join(output, 'scan.png.json'), 'utf8')) as Array<{ metadata: { ocr_warnings?: string[] } }>;
    expect(elements[0]!.metadata.ocr_warnings?.[0]).toContain('@tesseract.js-data/jpn');

    const quiet = await runCli(['run', wf, '--input', join(dir, 'in'), '--output', join(dir, 'out-quiet'), '--no-progress', '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^COMPLETED: 1 written/);
    expect(quiet.stdout).not.toContain('WARNING');
    expect(quiet.stderr).not.toContain('no OCR data is installed');
  }, 120_000);

  it('quarry partition --quiet: no warning printed, the warning still in the metadata', async () => {
    const r = await runCli(['partition', scan, '--ocr-languages', 'eng,jpn', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const elements = JSON.parse(r.stdout) as Array<{ metadata: { ocr_warnings?: string[] } }>;
    expect(elements[0]!.metadata.ocr_warnings?.[0]).toContain('@tesseract.js-data/jpn');
  }, 120_000);
});

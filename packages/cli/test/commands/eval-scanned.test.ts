import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../run-cli.js';

// The page of nodes' scanned-two-tables fixture (an image-only PDF made from scanned-two-tables.fodt):
// a table framed and ruled between its rows, and one without rules.
const FIXTURES = join(ROOT, 'packages', 'nodes', 'test', 'partition', 'formats', 'image', 'fixtures');
const row = (cells: string[]): string => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
const DEPOTS = [
  ['Depot', 'Vans', 'Trucks', 'Drivers'],
  ['Leeds', '14', '6', '25'],
  ['York', '9', '3', '13'],
  ['Hull', '11', '8', '22'],
  ['Selby', '4', '1', '6'],
  ['Goole', '7', '2', '10'],
  ['Ripon', '5', '0', '6'],
  ['Total', '50', '20', '82'],
];
const FUEL = [
  ['Quarter', 'Diesel', 'Petrol', 'Electric'],
  ['First', '3,120', '410', '95'],
  ['Second', '2,980', '385', '130'],
  ['Third', '3,240', '402', '171'],
  ['Fourth', '3,305', '398', '204'],
];

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-eval-scanned-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('quarry eval --scanned', () => {
  it('scans the reference tables’ pages into image-only PDFs, partitions them with hi_res and scores them', { timeout: 600_000 }, async () => {
    const docs = join(dir, 'docs');
    const exp = join(dir, 'expected');
    const out = join(dir, 'out');
    await mkdir(docs);
    await mkdir(exp);
    await copyFile(join(FIXTURES, 'scanned-two-tables.pdf'), join(docs, 'fleet.pdf'));
    const tables = [DEPOTS, FUEL].map((t) => ({ page: 1, html: `<table>${t.map(row).join('')}</table>` }));
    await writeFile(join(exp, 'fleet.json'), JSON.stringify({ tables }));
    const r = await runCli(['eval', out, exp, '--scanned', 'pdf', '--docs', docs, '--json', '--num-processes', '1']);
    expect(r.stderr).toContain('1 partitioned, 0 failed');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { mean: { table_recall: number; table_precision: number; teds: number } };
    expect(report.mean).toMatchObject({ table_recall: 1, table_precision: 1, teds: 1 });
    // The scan is kept beside the outputs, and the joined output puts every element on the source page.
    const scan = await readFile(join(out, 'scans-pdf', 'fleet-p1.pdf'));
    expect(scan.subarray(0, 5).toString()).toBe('%PDF-');
    const elements = JSON.parse(await readFile(join(out, 'fleet.json'), 'utf8')) as Array<{ type: string; metadata: { page_number: number } }>;
    expect(elements.filter((e) => e.type === 'Table')).toHaveLength(2);
    expect(new Set(elements.map((e) => e.metadata.page_number))).toEqual(new Set([1]));
  });

  it('names a wrong container, and a reference whose source PDF is missing', async () => {
    const exp = join(dir, 'missing', 'expected');
    await mkdir(exp, { recursive: true });
    await writeFile(join(exp, 'gone.json'), JSON.stringify({ tables: [{ page: 2, html: '<table><tr><td>a</td></tr></table>' }] }));
    const bad = await runCli(['eval', join(dir, 'missing', 'out'), exp, '--scanned', 'tiff']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--scanned must be one of png, pdf, got "tiff"');
    const missing = await runCli(['eval', join(dir, 'missing', 'out'), exp, '--scanned', 'png']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(exp, 'gone.pdf')}, the source PDF of reference gone.json`);
  });
});

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../run-cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-eval-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('quarry eval', () => {
  it('prints per-document scores and means, counting a missing output as 0', async () => {
    const exp = join(dir, 'expected');
    const out = join(dir, 'out');
    await mkdir(exp);
    await mkdir(out);
    const els = [
      { type: 'Title', text: 'Hello there' },
      { type: 'NarrativeText', text: 'A body paragraph of text.' },
    ];
    await writeFile(join(exp, 'a.txt.json'), JSON.stringify(els));
    await writeFile(join(exp, 'b.txt.json'), JSON.stringify(els));
    await writeFile(join(exp, 'a.txt.chunks.json'), '[]');
    await writeFile(join(out, 'a.txt.json'), JSON.stringify(els));
    const r = await runCli(['eval', out, exp, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { documents: Array<{ document: string; text_f1: number; error?: string }>; mean: { text_f1: number } };
    expect(report.documents.map((d) => [d.document, d.text_f1, d.error])).toEqual([
      ['a.txt', 1, undefined],
      ['b.txt', 0, 'no output'],
    ]);
    expect(report.mean.text_f1).toBe(0.5);
    const table = await runCli(['eval', out, exp]);
    expect(table.stdout).toMatch(/^document\s+text F1/);
    expect(table.stdout).toMatch(/mean\s+50\.0%/);
  });

  it('measures structure: tables from a tables-only reference and from Table elements, headings, levels', async () => {
    const exp = join(dir, 'structure', 'expected');
    const out = join(dir, 'structure', 'out');
    await mkdir(exp, { recursive: true });
    await mkdir(out, { recursive: true });
    const prices = '<table><tr><td colspan="2">Fruit prices</td></tr><tr><td>apples</td><td>3</td></tr><tr><td>pears</td><td>4</td></tr></table>';
    // A tables-only reference in the ICDAR 2013 dev set's shape, named without the document's extension.
    await writeFile(
      join(exp, 'report.json'),
      JSON.stringify({
        tables: [
          { page: 1, html: prices },
          {
            page: 2,
            cells: [
              { row: 0, col: 0, text: 'Staff' },
              { row: 0, col: 1, text: 'count' },
              { row: 1, col: 0, text: 'engineers' },
              { row: 1, col: 1, text: '12' },
            ],
          },
        ],
      }),
    );
    await writeFile(
      join(out, 'report.pdf.json'),
      JSON.stringify([
        { type: 'Title', text: 'Prices', metadata: { page_number: 1 } },
        { type: 'Table', text: 'Fruit prices apples 3 pears 4', metadata: { page_number: 1, text_as_html: prices.replace(' colspan="2"', '') } },
        { type: 'Table', text: 'Page 2 of 2', metadata: { page_number: 2, text_as_html: '<table><tr><td>Page 2 of 2</td></tr></table>' } },
      ]),
    );
    await writeFile(
      join(exp, 'notes.txt.json'),
      JSON.stringify([
        { type: 'Title', text: '1 Introduction', metadata: { category_depth: 0 } },
        { type: 'Title', text: '1.1 Scope', metadata: { category_depth: 1 } },
        { type: 'NarrativeText', text: 'The scope of this note is small.' },
        { type: 'Table', text: 'Fruit prices apples 3 pears 4', metadata: { text_as_html: prices } },
        { type: 'Table', text: 'Staff count engineers 12' },
      ]),
    );
    await writeFile(
      join(out, 'notes.txt.json'),
      JSON.stringify([
        { type: 'Title', text: '1 Introduction', metadata: { category_depth: 0 } },
        { type: 'Title', text: '1.1 Scope', metadata: { category_depth: 0 } },
        { type: 'Title', text: 'The scope of this note is small.' },
        { type: 'Table', text: 'Fruit prices apples 3 pears 4', metadata: { text_as_html: prices } },
        { type: 'Table', text: 'Staff count engineers 12' },
      ]),
    );
    const r = await runCli(['eval', out, exp, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { documents: Array<Record<string, unknown>>; mean: Record<string, number> };
    const [notes, pdf] = report.documents;
    expect(pdf).toMatchObject({
      document: 'report',
      tables_found: 1,
      expected_tables: 2,
      table_recall: 0.5,
      table_precision: 0.5,
      predicted_tables: 2,
      false_positives: 1,
    });
    expect(pdf).not.toHaveProperty('text_f1');
    expect(pdf).not.toHaveProperty('heading_precision');
    // the first table lost its colspan: one substitution in 9 nodes; the second was not read
    const tables = pdf!.tables as Array<{ found: boolean; teds: number; teds_s: number; pages: number[] }>;
    expect(tables.map((t) => [t.found, t.teds, t.teds_s, t.pages])).toEqual([
      [true, 1 - 1 / 9, 1 - 1 / 9, [1]],
      [false, tables[1]!.teds, tables[1]!.teds_s, [2]],
    ]);
    expect(tables[1]!.teds).toBeLessThan(0.5);
    // a reference Table without HTML has no structure to score, but an output table matching it is no false positive
    expect(notes).toMatchObject({
      document: 'notes.txt',
      text_f1: 1,
      heading_precision: 2 / 3,
      heading_recall: 1,
      heading_levels: 0.5,
      table_recall: 1,
      teds: 1,
      teds_s: 1,
      predicted_tables: 2,
      false_positives: 0,
      table_precision: 1,
    });
    expect(report.mean).toMatchObject({ text_f1: 1, table_recall: 2 / 3, table_precision: 3 / 4, heading_precision: 2 / 3, heading_recall: 1 });
    expect(report.mean.teds).toBeCloseTo((1 - 1 / 9 + tables[1]!.teds + 1) / 3, 12);
    const text = await runCli(['eval', out, exp]);
    expect(text.stdout).toMatch(/^document\s+text F1\s+order\s+types\s+tables\s+tbl rec\s+tbl prec\s+TEDS\s+TEDS-S\s+head P\s+head R/);
    const teds = `${(((1 - 1 / 9 + tables[1]!.teds) / 2) * 100).toFixed(1)}%`;
    expect(text.stdout).toContain(`\nreport        -       -       -       1/2   50.0%   50.0%    ${teds}`);
  });

  it('names the reference file and field that are wrong', async () => {
    const exp = join(dir, 'bad', 'expected');
    await mkdir(exp, { recursive: true });
    await writeFile(join(exp, 'x.json'), JSON.stringify({ tables: [{ cells: [{ row: 0, col: 'a', text: '' }] }] }));
    const r = await runCli(['eval', join(dir, 'bad', 'out'), exp]);
    expect([r.code, r.stderr]).toEqual([2, `quarry: reference ${join(exp, 'x.json')}: tables[0].cells[0].col must be an integer >= 0\n`]);
  });

  const corpus = join(ROOT, '..', 'shared', 'corpus');
  it.skipIf(!existsSync(corpus))(
    'meets the partition bar on the shared corpus (hi_res): mean text F1 >= 0.95, types >= 0.80, no failures',
    async () => {
      const out = join(dir, 'corpus-out');
      const docs = join(corpus, 'docs');
      const { readdirSync } = await import('node:fs');
      const files = readdirSync(docs).map((n) => join(docs, n));
      const p = await runCli(['partition', ...files, '--strategy', 'hi_res', '--output', out]);
      expect(p.stderr).toContain(`${files.length} partitioned, 0 failed`);
      const r = await runCli(['eval', out, join(corpus, 'expected'), '--json']);
      const report = JSON.parse(r.stdout) as { mean: { text_f1: number; type_agreement: number } };
      expect(report.mean.text_f1).toBeGreaterThanOrEqual(0.95);
      expect(report.mean.type_agreement).toBeGreaterThanOrEqual(0.8);
    },
    600_000,
  );
});

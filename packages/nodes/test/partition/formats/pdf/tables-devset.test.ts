/**
 * Tables of real PDFs: documents of the ICDAR 2013 table competition dev set
 * (`../shared/fidelity/icdar2013-dev`, hand-made truth; skipped when absent). Each test asserts the
 * grid of one table, read by hi_res, and that fast gives the same region as one Table element.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { pdfPartitioner } from '../../../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { formatOptions } from '../../format-options.js';

const DEV = path.resolve(import.meta.dirname, '../../../../../../../shared/fidelity/icdar2013-dev');
const present = existsSync(DEV);
if (!present) console.warn(`tables-devset: ${DEV} is absent; the dev-set table tests are skipped`);

afterAll(async () => {
  await stopPageWorker();
});

async function tables(doc: string, strategy: 'hi_res' | 'fast', page: number): Promise<Element[]> {
  const bytes = new Uint8Array(readFileSync(path.join(DEV, `${doc}.pdf`)));
  const els = await pdfPartitioner.partition(
    bytes,
    formatOptions({ strategy, filename: `${doc}.pdf`, filetype: 'application/pdf', infer_table_structure: true }),
  );
  return els.filter((e) => e.type === 'Table' && e.metadata.page_number === page);
}

/** The table's rows as `text` or `text{colspan,rowspan}` strings (covered positions absent). */
function grid(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((tr) =>
    [...tr[1]!.matchAll(/<td((?: \w+="\d+")*)(?:\/>|>(.*?)<\/td>)/g)].map((td) => {
      const cs = /colspan="(\d+)"/.exec(td[1]!)?.[1] ?? '1';
      const rs = /rowspan="(\d+)"/.exec(td[1]!)?.[1] ?? '1';
      const text = (td[2] ?? '').replace(/&amp;/g, '&');
      return cs === '1' && rs === '1' ? text : `${text}{${cs},${rs}}`;
    }),
  );
}

describe.skipIf(!present)('tables of the ICDAR 2013 dev set', () => {
  it('us-015 p4: a fully ruled table, its label cells spanning rows, long cells kept whole', async () => {
    const [table, ...more] = await tables('us-015', 'hi_res', 4);
    expect(more).toEqual([]);
    const rows = grid(table!.metadata.text_as_html!);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toEqual(['Measurement Property', 'Type', 'What Is Assessed?', 'FDA Review Considerations']);
    expect(rows[1]![0]).toBe('Reliability{1,3}');
    expect(rows[4]![0]).toBe('Validity{1,2}');
    expect(rows[2]![0]).toBe('Internal consistency');
    expect(rows.slice(1).map((r) => r.length)).toEqual([4, 3, 3, 4, 3, 4]);
  }, 180_000);

  it('eu-016 p3: rows ruled, columns ruled only in the header and total rows', async () => {
    const [table] = await tables('eu-016', 'hi_res', 3);
    const rows = grid(table!.metadata.text_as_html!);
    expect(rows).toHaveLength(31);
    expect(rows.every((r) => r.length === 5)).toBe(true);
    expect(rows[1]).toEqual(['Austria', '86.2', '13.8', '0', '3,375']);
    expect(rows[27]).toEqual(['EU Total', '65.1', '7.9', '27.0', '151,292']);
  }, 180_000);

  it('us-032 p1: section rows and wrapped cells in an unruled body', async () => {
    const [table] = await tables('us-032', 'hi_res', 1);
    const rows = grid(table!.metadata.text_as_html!);
    expect(rows.map((r) => r[0])).toEqual(['Source', 'Stationary:', 'Major', 'Area', 'Mobile:', 'On-road', 'Non-road']);
    expect(rows.every((r) => r.length === 3)).toBe(true);
    expect(rows[2]![1]).toMatch(/^Emissions of 10 to/);
  }, 180_000);

  it('us-019 p2: a table ruled with horizontal lines only, section rows included', async () => {
    const [table] = await tables('us-019', 'hi_res', 2);
    const rows = grid(table!.metadata.text_as_html!);
    expect(rows).toHaveLength(19);
    expect(rows[0]).toEqual(['Variable', 'Assumption']);
    expect(rows[1]).toEqual(['Demographic assumptions', '']);
    expect(rows[3]![0]).toBe('18- to 24-year-old population');
    expect(rows[3]![1]).toMatch(/^Census Bureau projection: average annual growth rate/);
  }, 180_000);

  it("eu-013 p3: ruled across with column lines between the cells only, the open sides walled by the rules' ends", async () => {
    const [table, ...more] = await tables('eu-013', 'hi_res', 3);
    expect(more).toEqual([]);
    expect(grid(table!.metadata.text_as_html!)).toEqual([
      ['', '2000', '2002', '2004'],
      ['General upper secondary education', '15 455', '13 951', '12 068'],
      ['Competence-based qualifications', '35 190', '44 307', '60 152'],
      ['Polytechnics', '20 527', '20 922', '22 083'],
    ]);
  }, 180_000);

  it('eu-020 p2: columns ruled with double lines, the spanning header over the gap between them', async () => {
    const found = await tables('eu-020', 'hi_res', 2);
    const rows = grid(found[1]!.metadata.text_as_html!);
    expect(rows.slice(0, 3)).toEqual([
      ['', 'Female students{2,1}'],
      ['Faculty cluster', 'Sample', 'Population'],
      ['Sciences', '63 (18.5%)', '597 (16.4%)'],
    ]);
    expect(rows.slice(1).every((r) => r.length === 3)).toBe(true);
  }, 180_000);

  it("takes no chart for a table: bar charts' value labels and plots' axis labels stay text", async () => {
    for (const [doc, page] of [
      ['us-001', 2],
      ['us-002', 4],
      ['us-023', 3],
      ['us-028', 4],
    ] as const) {
      expect(await tables(doc, 'hi_res', page), `${doc} p${page}`).toEqual([]);
    }
    // A stacked bar chart above a table: the table alone stays.
    const [table, ...more] = await tables('eu-012', 'hi_res', 3);
    expect(more).toEqual([]);
    expect(table!.text).toMatch(/^Finland EU-15 EU-25 1996/);
  }, 180_000);

  it('us-025 p3: three tables ruled across, one under the other, read apart (notes and a caption between them)', async () => {
    const found = await tables('us-025', 'hi_res', 3);
    expect(found).toHaveLength(3);
    expect(found.map((t) => grid(t.metadata.text_as_html!).length)).toEqual([8, 14, 8]);
    expect(found.map((t) => /Hispanic/.test(t.text))).toEqual([true, false, true]);
    expect(found[1]!.text).toMatch(/^Age American Indian\/Alaska native Asian\/ Paciic Islander Black White/);
  }, 180_000);

  it('fast keeps each of these tables together as one Table without HTML', async () => {
    for (const [doc, page, words] of [
      ['us-015', 4, 'Reliability'],
      ['eu-016', 3, 'Austria'],
      ['us-019', 2, 'Demographic assumptions'],
    ] as const) {
      const found = await tables(doc, 'fast', page);
      expect(found, `${doc} p${page}`).toHaveLength(1);
      expect(found[0]!.text).toContain(words);
      expect(found[0]!.metadata.text_as_html).toBeUndefined();
    }
  }, 180_000);
});

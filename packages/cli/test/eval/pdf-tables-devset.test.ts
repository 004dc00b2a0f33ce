/**
 * A floor under quarry's table reading on the ICDAR 2013 dev set (`../shared/fidelity/icdar2013-dev`,
 * 37 born-digital PDFs, 97 hand-made tables; skipped when absent): hi_res with table structure,
 * scored as `pnpm bench fidelity` and `quarry eval` score it. The floors sit a little under the
 * figures measured when they were set (recall 0.990, precision 0.971, TEDS 0.916, TEDS-S 0.945), so
 * a change that loses tables or structure fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partitionFile } from '@quarry/nodes';
import { predictedTablesOf, referenceTablesOf } from '../../src/eval/reference-tables.js';
import { scoreTables } from '../../src/eval/table-scores.js';
import { ROOT } from '../run-cli.js';

const DEV = join(ROOT, '..', 'shared', 'fidelity', 'icdar2013-dev');
const present = existsSync(DEV);
if (!present) console.warn(`pdf-tables-devset: ${DEV} is absent; the dev-set floor is skipped`);

describe.skipIf(!present)('hi_res tables on the ICDAR 2013 dev set', () => {
  it('finds and rebuilds the tables at least as well as when the floor was set', async () => {
    const t = { tables: 0, found: 0, predicted: 0, fp: 0, teds: 0, teds_s: 0 };
    for (const pdf of readdirSync(DEV).filter((f) => f.endsWith('.pdf'))) {
      const bytes = new Uint8Array(readFileSync(join(DEV, pdf)));
      const elements = await partitionFile(bytes, { filename: pdf, strategy: 'hi_res', infer_table_structure: true });
      const s = scoreTables(predictedTablesOf(elements), referenceTablesOf(JSON.parse(readFileSync(join(DEV, pdf.replace(/\.pdf$/, '.json')), 'utf8'))));
      t.tables += s.expected_tables;
      t.found += s.tables_found;
      t.predicted += s.predicted_tables;
      t.fp += s.false_positives;
      for (const r of s.tables) {
        t.teds += r.teds;
        t.teds_s += r.teds_s;
      }
    }
    expect(t.tables).toBe(97);
    expect(t.found / t.tables).toBeGreaterThanOrEqual(0.97);
    expect((t.predicted - t.fp) / t.predicted).toBeGreaterThanOrEqual(0.95);
    expect(t.teds / t.tables).toBeGreaterThanOrEqual(0.9);
    expect(t.teds_s / t.tables).toBeGreaterThanOrEqual(0.92);
  }, 600_000);
});

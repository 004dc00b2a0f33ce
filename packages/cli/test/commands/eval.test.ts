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
    const els = [{ type: 'Title', text: 'Hello there' }, { type: 'NarrativeText', text: 'A body paragraph of text.' }];
    await writeFile(join(exp, 'a.txt.json'), JSON.stringify(els));
    await writeFile(join(exp, 'b.txt.json'), JSON.stringify(els));
    await writeFile(join(exp, 'a.txt.chunks.json'), '[]');
    await writeFile(join(out, 'a.txt.json'), JSON.stringify(els));
    const r = await runCli(['eval', out, exp, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { documents: Array<{ document: string; text_f1: number; error?: string }>; mean: { text_f1: number } };
    expect(report.documents.map((d) => [d.document, d.text_f1, d.error])).toEqual([['a.txt', 1, undefined], ['b.txt', 0, 'no output']]);
    expect(report.mean.text_f1).toBe(0.5);
    const table = await runCli(['eval', out, exp]);
    expect(table.stdout).toMatch(/^document\s+text F1/);
    expect(table.stdout).toMatch(/mean\s+50\.0%/);
  });

  const corpus = join(ROOT, '..', 'shared', 'corpus');
  it.skipIf(!existsSync(corpus))('meets the partition bar on the shared corpus (hi_res): mean text F1 >= 0.95, types >= 0.80, no failures', async () => {
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
  }, 600_000);
});

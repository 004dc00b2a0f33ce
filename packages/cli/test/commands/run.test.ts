import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../run-cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-run-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

const workflow = {
  name: 'cli-test',
  workflow_type: 'custom',
  reprocess_all: false,
  workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } }],
};

describe('quarry run', () => {
  it('writes <file>.json per document, fails a broken one alone, and skips unchanged files on the next run', async () => {
    const input = join(dir, 'in');
    const output = join(dir, 'out');
    await cp(join(ROOT, 'examples/docs'), input, { recursive: true, filter: (src) => !src.includes('generated') });
    await writeFile(join(input, 'empty.txt'), '');
    await writeFile(join(input, 'blob.bin'), Buffer.from([0, 159, 146, 150, 0, 1, 2, 3, 255, 254, 0, 7]));
    const wf = join(dir, 'wf.json');
    await writeFile(wf, JSON.stringify(workflow));

    const first = await runCli(['run', wf, '--input', input, '--output', output, '--no-progress']);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/COMPLETED: 6 written, 2 failed, 0 unchanged, 0 stopped of 8 documents/);
    expect(first.stdout).toMatch(/FAILED empty\.txt at Partitioner: FILE_EMPTY/);
    expect(first.stdout).toMatch(/FAILED blob\.bin at Partitioner: FILETYPE_UNSUPPORTED/);
    const written = (await readdir(output)).filter((n) => n.endsWith('.json')).sort();
    expect(written).toEqual([
      'field-guide.md.json',
      'quarterly-notes.html.json',
      'reading-list.csv.json',
      'release-checklist.txt.json',
      'station-log.xml.json',
      'team-update.eml.json',
    ]);
    const html = JSON.parse(await readFile(join(output, 'quarterly-notes.html.json'), 'utf8')) as Array<{ type: string; text: string }>;
    expect(html[0]).toMatchObject({ type: 'Title', text: 'Quarterly Operations Notes' });
    expect(html.some((e) => e.type === 'Table')).toBe(true);

    await rm(join(input, 'empty.txt'));
    await rm(join(input, 'blob.bin'));
    await writeFile(join(input, 'release-checklist.txt'), 'CHANGED\n\nThis paragraph replaces the checklist text entirely.\n');
    const second = await runCli(['run', wf, '--input', input, '--output', output, '--no-progress', '--json']);
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as { status: string; counts: Record<string, number> };
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ total: 6, written: 1, skipped: 5, failed: 0 });
    const changed = JSON.parse(await readFile(join(output, 'release-checklist.txt.json'), 'utf8')) as Array<{ text: string }>;
    expect(changed.map((e) => e.text)).toEqual(['CHANGED', 'This paragraph replaces the checklist text entirely.']);
  });

  it('rejects an invalid workflow with one line naming the problem', async () => {
    const wf = join(dir, 'bad.json');
    await writeFile(wf, JSON.stringify({ ...workflow, workflow_nodes: [] }));
    const r = await runCli(['run', wf, '--input', join(ROOT, 'examples/docs'), '--output', join(dir, 'x')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^quarry: WORKFLOW_INVALID: workflow "cli-test" is invalid: \/workflow_nodes: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names a missing input directory', async () => {
    const wf = join(dir, 'ok.json');
    await writeFile(wf, JSON.stringify(workflow));
    const r = await runCli(['run', wf, '--input', join(dir, 'nope'), '--output', join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^quarry: input not found: .*nope\n$/);
  });

  it('rejects a bad --concurrency', async () => {
    const r = await runCli(['run', 'examples/workflows/local.json', '--input', 'examples/docs', '--output', join(dir, 'x'), '--concurrency', 'zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected a positive integer');
  });
});

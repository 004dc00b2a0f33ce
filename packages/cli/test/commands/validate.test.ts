import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-cli-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('quarry validate', () => {
  it('exits 0 for the example workflow', async () => {
    const r = await runCli(['validate', 'examples/workflows/local.json']);
    expect(r.stdout).toContain('valid');
    expect(r.code).toBe(0);
  });

  it('prints every problem as JSON and exits 1', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'bad',
        workflow_type: 'basic',
        schedule: 'daily',
        workflow_nodes: [{ name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 100, overlap: 200 } }],
      }),
    );
    const r = await runCli(['validate', file, '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { valid: boolean; problems: Array<{ code: string; path: string; message: string }> };
    expect(out.valid).toBe(false);
    const codes = out.problems.map((p) => p.code);
    expect(codes).toEqual(
      expect.arrayContaining(['workflow_type.non_operational', 'local.schedule_not_allowed', 'order.partition_required', 'chunking.overlap_too_large']),
    );
    for (const p of out.problems) expect(p.path).toMatch(/^(\/[^/]*)*$/);
  });

  it('reads stdin and reports malformed JSON in one line', async () => {
    const r = await runCli(['validate', '-'], { input: '{ nope' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^quarry: stdin is not valid JSON/);
  });

  it('names a missing file without a stack trace', async () => {
    const r = await runCli(['validate', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^quarry: file not found: .*missing\.json\n$/);
  });
});

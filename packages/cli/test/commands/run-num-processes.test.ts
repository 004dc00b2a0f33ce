import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../run-cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-run-np-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

const workflow = {
  name: 'cli-pool-test',
  workflow_type: 'custom',
  reprocess_all: true,
  workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } }],
};

async function outputs(output: string): Promise<Map<string, unknown>> {
  const names = (await readdir(output)).filter((n) => n.endsWith('.json')).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, JSON.parse(await readFile(join(output, n), 'utf8'))] as const)));
}

describe('quarry run --num-processes', () => {
  it('partitions in worker threads with the same output as the main thread, failing a broken file alone', async () => {
    const input = join(dir, 'in');
    await cp(join(ROOT, 'examples/docs'), input, { recursive: true, filter: (src) => !src.includes('generated') });
    await writeFile(join(input, 'empty.txt'), '');
    const wf = join(dir, 'wf.json');
    await writeFile(wf, JSON.stringify(workflow));

    const plain = await runCli(['run', wf, '--input', input, '--output', join(dir, 'plain'), '--no-progress']);
    const pooled = await runCli(['run', wf, '--input', input, '--output', join(dir, 'pooled'), '--no-progress', '--num-processes', '2']);
    expect(pooled.code).toBe(1);
    expect(pooled.stdout).toMatch(/COMPLETED: 6 written, 1 failed, 0 unchanged, 0 stopped of 7 documents/);
    expect(pooled.stdout).toMatch(/FAILED empty\.txt at Partitioner: FILE_EMPTY/);
    expect(plain.stdout).toMatch(/6 written, 1 failed/);
    const a = await outputs(join(dir, 'plain'));
    const b = await outputs(join(dir, 'pooled'));
    expect(a.size).toBe(6);
    expect(b).toEqual(a);
  }, 120_000);

  it('rejects a non-positive worker count', async () => {
    const r = await runCli(['run', 'wf.json', '--input', '.', '--output', join(dir, 'x'), '--num-processes', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--num-processes <n>.*expected a positive integer/);
  });
});

import { mkdir, mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliLogger } from '../../src/cli-logger.js';
import { documentProgress } from '../../src/progress.js';
import { ROOT, runCli } from '../run-cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'quarry-warnings-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

// A zip local-file header followed by garbage: detected as a zip container, unreadable as DOCX.
const brokenDocx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);

describe('warnings and progress, worded alike in every command', () => {
  it('cliLogger words a warning, a failed document and an error as one readable line each; quiet drops warnings only', () => {
    const lines: string[] = [];
    const write = (l: string): void => void lines.push(l);
    const job = cliLogger({ write });
    job.warn('no OCR data is installed for kor', { record_id: 'scan.png', node: 'partition' });
    job.warn('document failed', { record_id: 'a.docx', node: 'partition', code: 'FILE_UNREADABLE', message: 'a.docx: not a DOCX' });
    job.error('job failed', { code: 'JOB_FAILED', message: 'source is gone' });
    cliLogger({ write, file: 'b.png' }).warn('page 2 could not be read');
    cliLogger({ write, quiet: true }).warn('hidden');
    cliLogger({ write, quiet: true, file: 'c.pdf' }).error('broken');
    expect(lines).toEqual([
      'quarry: warning: scan.png at partition: no OCR data is installed for kor\n',
      'quarry: a.docx at partition: FILE_UNREADABLE: a.docx: not a DOCX\n',
      'quarry: job: JOB_FAILED: source is gone\n',
      'quarry: warning: b.png: page 2 could not be read\n',
      'quarry: c.pdf: broken\n',
    ]);
  });

  it('the progress bar counts documents and prints logged lines whole (no TTY: a plain line at start and end)', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    let out = '';
    (stream as unknown as PassThrough).on('data', (d: Buffer) => (out += d.toString('utf8')));
    const p = documentProgress(3, stream);
    p.tick('a.md');
    p.log('quarry: warning: b.png: page 2 could not be read\n');
    p.tick('b.png', 'failed');
    p.tick('c.txt', 'skipped');
    p.stop();
    expect(out).toContain('quarry: warning: b.png: page 2 could not be read\n');
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/ 3\/3 docs \| 1 failed \| 1 skipped \|/);
  });

  it('quarry partition of several files shows progress; quarry run prints failures as readable lines, not JSON', async () => {
    const input = join(dir, 'in');
    await mkdir(input);
    for (const name of ['reading-list.csv', 'team-update.eml', 'field-guide.md']) await copyFile(join(ROOT, 'examples/docs', name), join(input, name));
    await writeFile(join(input, 'broken.docx'), brokenDocx);
    const files = ['broken.docx', 'field-guide.md', 'reading-list.csv', 'team-update.eml'].map((f) => join(input, f));

    const part = await runCli(['partition', ...files, '--output', join(dir, 'out-partition')]);
    expect(part.code).toBe(1);
    expect(part.stderr).toMatch(/ 4\/4 docs \| 1 failed \| 0 skipped \|/);
    expect(part.stderr).toMatch(/^quarry: .*broken\.docx: [A-Z_]+: /m);
    expect(part.stderr).toContain('3 partitioned, 1 failed');

    const workflow = join(dir, 'workflow.json');
    await writeFile(
      workflow,
      JSON.stringify({
        name: 'warnings',
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      }),
    );
    const run = await runCli(['run', workflow, '--input', input, '--output', join(dir, 'out-run')]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('{"level"');
    expect(run.stderr).toMatch(/^quarry: broken\.docx at partition: [A-Z_]+: /m);
    expect(run.stderr).toMatch(/ 4\/4 docs \| 1 failed \| 0 skipped \|/);
  }, 300_000);
});

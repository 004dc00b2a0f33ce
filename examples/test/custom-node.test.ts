import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runRedaction } from '../custom-node.js';

const docs = resolve(fileURLToPath(new URL('../docs', import.meta.url)));
let out: string;
afterAll(async () => out && rm(out, { recursive: true, force: true }));

describe('examples/custom-node.ts', () => {
  it('runs a custom prompter plugin after the built-in partitioner', async () => {
    out = await mkdtemp(join(tmpdir(), 'quarry-example-'));
    const summary = await runRedaction(docs, out);
    expect(summary.status).toBe('COMPLETED');
    expect(summary.counts).toMatchObject({ written: 2, failed: 0 });
    const elements = JSON.parse(await readFile(join(out, 'release-checklist.txt.json'), 'utf8')) as Array<{ text: string }>;
    const texts = elements.map((e) => e.text).join('\n');
    expect(texts).toContain('Contact: <redacted>');
    expect(texts).not.toContain('releases@example.com');
  });
});

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markdownToElements } from './readme-example.js';
import { captureLogger, makeTempDir, removeDir, writeTree } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const readme = path.resolve(here, '..', 'README.md');

describe('README example', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(() => removeDir(root));

  it('is shown in the README exactly as tested', async () => {
    expect(existsSync(readme)).toBe(true);
    const example = (await readFile(path.join(here, 'readme-example.ts'), 'utf8')).trim();
    expect(await readFile(readme, 'utf8')).toContain(example);
  });

  it('turns a folder of Markdown into element JSON files, and a re-run replaces them', async () => {
    const input = path.join(root, 'notes');
    const output = path.join(root, 'out');
    await writeTree(input, {
      'intro.md': '# Intro\n\nFirst paragraph.\n\nSecond paragraph.\n',
      'guides/setup.md': '# Setup\n\nInstall it.\n',
      'drafts/wip.md': '# Not yet\n',
      'image.png': 'not markdown',
      '.hidden.md': '# hidden\n',
    });
    const { logger } = captureLogger();
    expect(await markdownToElements(input, output, logger)).toEqual(['guides/setup.md', 'intro.md']);
    const intro = JSON.parse(await readFile(path.join(output, 'intro.md.json'), 'utf8')) as Array<{
      type: string;
      text: string;
      metadata: Record<string, unknown>;
    }>;
    expect(intro.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'Intro'],
      ['NarrativeText', 'First paragraph.'],
      ['NarrativeText', 'Second paragraph.'],
    ]);
    expect(intro[0]?.metadata).toMatchObject({
      filename: 'intro.md',
      data_source: { record_locator: { protocol: 'file', remote_file_path: path.join(input, 'intro.md') } },
    });

    await writeTree(input, { 'intro.md': '# Intro, shorter\n' });
    await markdownToElements(input, output, logger);
    const again = JSON.parse(await readFile(path.join(output, 'intro.md.json'), 'utf8')) as Array<{ text: string }>;
    expect(again.map((e) => e.text)).toEqual(['Intro, shorter']);
  });
});

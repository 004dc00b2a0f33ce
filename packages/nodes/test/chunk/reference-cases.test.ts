import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { elementFromJSON, type Element } from '@quarry/core';
import { chunkByCharacter, chunkByTitle, type ChunkingOptionsInput } from '../../src/chunk/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dir = path.resolve(repoRoot, '..', 'shared', 'chunking');

interface ReferenceCase {
  name: string;
  strategy: 'basic' | 'by_title';
  options: ChunkingOptionsInput;
  input: unknown[];
  expected: Array<{ type: string; text: string }>;
}

function loadCases(file: string): ReferenceCase[] {
  const full = path.join(dir, file);
  if (!existsSync(full)) return [];
  return (JSON.parse(readFileSync(full, 'utf8')) as { cases: ReferenceCase[] }).cases;
}

function run(c: ReferenceCase): Array<{ type: string; text: string }> {
  const input: Element[] = c.input.map((e, i) => elementFromJSON(e, { source: `${c.name}/input/${i}` }));
  const chunks = c.strategy === 'by_title' ? chunkByTitle(input, c.options) : chunkByCharacter(input, c.options);
  return chunks.map((ch) => ({ type: ch.type, text: ch.text }));
}

for (const file of ['cases.json', 'random-cases.json']) {
  describe.skipIf(!existsSync(path.join(dir, file)))(`reference chunking cases: ${file} (needs ${dir})`, () => {
    for (const c of loadCases(file)) {
      it(`${c.strategy} ${c.name}`, () => {
        expect(run(c)).toEqual(c.expected);
      });
    }
  });
}

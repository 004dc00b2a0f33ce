import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('../../../examples/custom-node.ts', import.meta.url)), 'utf8');
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };

describe('core README', () => {
  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
  });

  it('keeps ENGINE_VERSION in step with package.json', () => {
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});

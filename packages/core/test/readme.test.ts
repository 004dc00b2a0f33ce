import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ENGINE_VERSION } from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('../../../examples/custom-node.ts', import.meta.url)), 'utf8');
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };

describe('core README', () => {
  it('documents every error code, in order, and no other', () => {
    const section = readme.slice(readme.indexOf('## Error codes'), readme.indexOf('## Workflow validation'));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(Object.entries(ERROR_CODES));
    expect(Object.keys(ERROR_CODES)).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
  });

  it('keeps ENGINE_VERSION in step with package.json', () => {
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});

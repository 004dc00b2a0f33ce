import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Every repository path a contributor document quotes in backticks: a quoted word with a slash
 * that starts at a top-level folder of the repository (`packages/nodes/src/plugin.ts`,
 * `scripts/build.mjs`). Patterns (`<kind>`, `*`) are cut at their first wildcard.
 */
function quotedPaths(text: string): string[] {
  const tops = ['packages/', 'scripts/', 'examples/', 'docs/', 'patches/', '.ci/'];
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((p) => tops.some((t) => p.startsWith(t)))
    .map((p) => p.split(/[<*{]/)[0]!);
}

describe.each(['CONTRIBUTING.md', 'docs/engines.md'])('%s', (doc) => {
  const text = readFileSync(path.join(root, doc), 'utf8');

  it('quotes only paths that exist', () => {
    const paths = quotedPaths(text);
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...text.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.filter((l) => !existsSync(path.resolve(path.dirname(path.join(root, doc)), l)))).toEqual([]);
  });
});

it('CONTRIBUTING.md is one page', () => {
  expect(readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(120);
});

/**
 * The docs-sync test every package runs on its error codes: its README's `## Error codes` table is
 * its code table, row for row, and each code is used somewhere in its sources.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ErrorCodeTable } from '../../src/index.js';

/** The rows `` | `CODE` | description | `` of a README's `## Error codes` section, in order. */
export function readmeErrorCodes(readme: string): Array<[string, string]> {
  const start = readme.search(/^## Error codes$/m);
  if (start < 0) return [];
  const rest = readme.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!]);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * Declares the tests of one package's codes; `packageDir` is the package folder, `table` its codes
 * and `tableFile` the source file holding the table (left out when looking for uses).
 */
export function describeErrorCodes(packageDir: URL, table: ErrorCodeTable, tableFile = 'src/errors.ts'): void {
  const dir = fileURLToPath(packageDir);
  describe(`error codes of ${path.basename(dir)}`, () => {
    it('are listed in code order', () => {
      expect(Object.keys(table)).toEqual(Object.keys(table).sort());
    });

    it("are the README's table, row for row", () => {
      expect(readmeErrorCodes(readFileSync(path.join(dir, 'README.md'), 'utf8'))).toEqual(Object.entries(table));
    });

    it('are each used by the sources', () => {
      const tablePath = path.join(dir, tableFile);
      const text = sources(path.join(dir, 'src'))
        .filter((f) => f !== tablePath)
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      expect(Object.keys(table).filter((code) => !text.includes(`'${code}'`))).toEqual([]);
    });
  });
}

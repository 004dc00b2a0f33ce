import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiReports } from '../../../scripts/api-report.mjs';

// The public surface of every package is what `api/<package>.api.md` says: adding, removing or
// changing an exported name or a member of an exported type fails here until the report is
// regenerated (`node scripts/api-report.mjs`) and the change is seen in review.
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('public API reports', () => {
  const reports = apiReports();
  it('covers every package with entries', () => {
    expect(Object.keys(reports).sort()).toEqual(['cli', 'connectors', 'core', 'distributed', 'langchain', 'llamaindex', 'nodes', 'server']);
  });
  for (const [pkg, text] of Object.entries(reports)) {
    it(`${pkg}: the sources export what api/${pkg}.api.md lists`, () => {
      const file = path.join(root, 'api', `${pkg}.api.md`);
      expect(existsSync(file), `api/${pkg}.api.md is missing: run node scripts/api-report.mjs`).toBe(true);
      expect(text, `the public API of ${pkg} changed: review it and run node scripts/api-report.mjs`).toBe(readFileSync(file, 'utf8'));
    });
  }
  it('lists no export * barrel in an entry', () => {
    for (const pkg of Object.keys(reports)) {
      const { exports } = JSON.parse(readFileSync(path.join(root, 'packages', pkg, 'package.json'), 'utf8')) as { exports: Record<string, { source: string }> };
      for (const [sub, entry] of Object.entries(exports)) {
        const text = readFileSync(path.join(root, 'packages', pkg, entry.source), 'utf8');
        expect(text, `${pkg}${sub.slice(1)} re-exports a whole module`).not.toMatch(/^export (type )?\* from/m);
      }
    }
  });
});

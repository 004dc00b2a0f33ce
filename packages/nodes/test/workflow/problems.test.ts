import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODES, isProblemCode, type ProblemCode } from '@quarry/core';
import { validateWorkflow } from './helpers.js';
import { PROBLEM_FIXTURES } from './problem-fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const readmeSection = readFileSync(path.resolve(here, '../../../core/src/workflow/README-section.md'), 'utf8');

describe('PROBLEM_CODES', () => {
  it('is sorted and every code is <area>.<what> in snake_case', () => {
    const codes = Object.keys(PROBLEM_CODES);
    expect(codes).toEqual([...codes].sort());
    for (const c of codes) expect(c).toMatch(/^[a-z_]+\.[a-z0-9_]+$/);
  });

  it.each(PROBLEM_FIXTURES.map((f) => [f.code, f] as const))('%s is produced by its fixture at the expected path', (code, fixture) => {
    const r = validateWorkflow(fixture.body, fixture.options);
    expect(r.valid).toBe(false);
    expect(r.problems.filter((p) => p.code === code).map((p) => p.path)).toContain(fixture.path);
  });

  it('every code has a fixture, and every code any fixture emits is listed', () => {
    // These three are emitted by engine.build (plan compilation), covered in test/engine.test.ts.
    const covered = new Set<string>([...PROBLEM_FIXTURES.map((f) => f.code), 'node.not_registered', 'order.stage_mismatch', 'template.not_found']);
    expect(Object.keys(PROBLEM_CODES).filter((c) => !covered.has(c as ProblemCode))).toEqual([]);
    const emitted = new Set(PROBLEM_FIXTURES.flatMap((f) => validateWorkflow(f.body, f.options).problems.map((p) => p.code)));
    expect([...emitted].filter((c) => !isProblemCode(c))).toEqual([]);
  });

  it('README-section.md has one table row per code, with its meaning', () => {
    const rows = [...readmeSection.matchAll(/^\| `([a-z_.0-9]+)` \| (.+) \|$/gm)].map((m) => m[1]);
    expect(rows).toEqual(Object.keys(PROBLEM_CODES));
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CORE_PROBLEM_CODES, defineNode, definePlugin, isQuarryError, Registry, type ProblemCodeTable } from '@quarry/core';
import { NODES_PROBLEM_CODES, nodesPlugin } from '../../src/index.js';
import { builtinRegistry, customBody, nodes, validateWorkflow } from './helpers.js';
import { PROBLEM_FIXTURES } from './problem-fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const readme = (pkg: string): string => readFileSync(path.resolve(here, `../../../${pkg}/README.md`), 'utf8');
/** The codes of the first `| `code` | meaning |` table after `heading` in a README. */
function tableAfter(text: string, heading: string): string[] {
  const from = text.indexOf(heading);
  expect(from, `${heading} in the README`).toBeGreaterThanOrEqual(0);
  const section = text.slice(from, text.indexOf('\n## ', from + 1) >>> 0 || undefined);
  return [...section.matchAll(/^\| `([a-z_.0-9]+)` \| (.+) \|$/gm)].map((m) => m[1]!);
}

describe('problem codes', () => {
  it('each table is sorted and every code is <area>.<what> in snake_case', () => {
    for (const table of [CORE_PROBLEM_CODES, NODES_PROBLEM_CODES] as ProblemCodeTable[]) {
      const codes = Object.keys(table);
      expect(codes).toEqual([...codes].sort());
      for (const c of codes) expect(c).toMatch(/^[a-z_]+\.[a-z0-9_]+$/);
    }
  });

  it.each(PROBLEM_FIXTURES.map((f) => [f.code, f] as const))('%s is produced by its fixture at the expected path', (code, fixture) => {
    const r = validateWorkflow(fixture.body, fixture.options);
    expect(r.valid).toBe(false);
    expect(r.problems.filter((p) => p.code === code).map((p) => p.path)).toContain(fixture.path);
  });

  it('every code has a fixture, and every code any fixture emits is declared by core or nodesPlugin', () => {
    const declared = builtinRegistry().problemCodes();
    // These three are emitted by engine.build (plan compilation), covered in test/engine.test.ts.
    const covered = new Set<string>([...PROBLEM_FIXTURES.map((f) => f.code), 'node.not_registered', 'order.stage_mismatch', 'template.not_found']);
    expect([...declared.keys()].filter((c) => !covered.has(c))).toEqual([]);
    const emitted = new Set(PROBLEM_FIXTURES.flatMap((f) => validateWorkflow(f.body, f.options).problems.map((p) => p.code)));
    expect([...emitted].filter((c) => !declared.has(c))).toEqual([]);
    expect(declared.get('chunking.overlap_too_large')?.owner).toBe('@quarry/nodes');
    expect(declared.get('order.embed_not_last')?.owner).toBe('@quarry/core');
  });

  it("each README lists its package's codes, one row per code", () => {
    expect(tableAfter(readme('core'), '### Problem codes')).toEqual(Object.keys(CORE_PROBLEM_CODES));
    expect(tableAfter(readme('nodes'), '## Workflow problem codes')).toEqual(Object.keys(NODES_PROBLEM_CODES));
  });
});

// A third-party plugin declares its own code, augments the type checker's list, and reports it.
const VCARD_PROBLEM_CODES = { 'vcard.version_unsupported': 'a vcard chunker asks for a vCard version other than 3 or 4' } as const satisfies ProblemCodeTable;
type VcardProblemCodes = typeof VCARD_PROBLEM_CODES;
declare module '@quarry/core' {
  interface QuarryProblemCodes extends VcardProblemCodes {}
}

const vcardChunker = defineNode({
  type: 'chunk',
  subtype: 'chunk_by_vcard',
  settings: z.object({ version: z.number().int().default(4) }).strict(),
  check: (self) =>
    self.settings.version === 3 || self.settings.version === 4 || self.settings.version === undefined
      ? []
      : [
          {
            code: 'vcard.version_unsupported',
            path: ['workflow_nodes', self.index, 'settings', 'version'],
            message: `version ${String(self.settings.version)} is not 3 or 4`,
          },
        ],
  create: () => ({ process: (f) => f.elements }),
});

describe("a plugin's own problem code", () => {
  const vcardPlugin = definePlugin({ name: 'vcard', engine: '*', nodes: [vcardChunker], problemCodes: VCARD_PROBLEM_CODES });

  it('round-trips through validation and is listed with its owner', () => {
    const registry = builtinRegistry();
    registry.register(vcardPlugin);
    const r = validateWorkflow(customBody([nodes.auto(), nodes.chunk('chunk_by_vcard', { version: 2 })]), { registry });
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([['vcard.version_unsupported', '/workflow_nodes/1/settings/version']]);
    expect(registry.problemCodes().get('vcard.version_unsupported')).toEqual({ owner: 'vcard', description: VCARD_PROBLEM_CODES['vcard.version_unsupported'] });
    expect(validateWorkflow(customBody([nodes.auto(), nodes.chunk('chunk_by_vcard', { version: 4 })]), { registry }).valid).toBe(true);
  });

  it('cannot take a code core or another plugin owns, nor a code of the wrong shape', () => {
    const refused = (problemCodes: ProblemCodeTable, registry = builtinRegistry()): string => {
      try {
        registry.register(definePlugin({ name: 'thief', engine: '*', problemCodes }));
        return 'registered';
      } catch (e) {
        return isQuarryError(e) ? `${e.code}: ${e.message}` : String(e);
      }
    };
    expect(refused({ 'order.embed_not_last': 'mine' })).toBe(
      'DUPLICATE_PROBLEM_CODE: plugin "thief": problem code order.embed_not_last is already declared by core',
    );
    expect(refused({ 'ner.prompt_json_keys': 'mine' })).toBe(
      'DUPLICATE_PROBLEM_CODE: plugin "thief": problem code ner.prompt_json_keys is already declared by plugin "@quarry/nodes"',
    );
    expect(refused({ 'Vcard-Bad': 'mine' })).toMatch(/^INVALID_PLUGIN: .*is not <area>\.<what> in lower snake case$/);
    const bare = new Registry();
    expect(refused({ 'ner.prompt_json_keys': 'mine' }, bare)).toBe('registered');
    expect(() => bare.register(nodesPlugin)).toThrow(/ner\.prompt_json_keys is already declared by plugin "thief"/);
  });
});

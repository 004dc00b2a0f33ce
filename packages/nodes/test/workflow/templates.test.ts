import { describe, expect, it } from 'vitest';
import { createEngine, definePlugin, isQuarryError } from '@quarry/core';
import { BUILTIN_TEMPLATES, nodesPlugin } from '../../src/index.js';
import { validateWorkflow } from './helpers.js';

describe('BUILTIN_TEMPLATES with the built-in nodes', () => {
  it('ships the platform ids and unique node ids', () => {
    const ids = BUILTIN_TEMPLATES.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['hi_res_partition', 'hi_res_and_enrichment', 'fast_and_chunk']));
    expect(new Set(ids).size).toBe(ids.length);
    const nodeIds = BUILTIN_TEMPLATES.flatMap((t) => t.nodes.map((n) => n.id));
    expect(new Set(nodeIds).size).toBe(nodeIds.length);
  });

  it('hi_res_and_enrichment enriches with prompter nodes before any chunker', () => {
    const t = BUILTIN_TEMPLATES.find((x) => x.id === 'hi_res_and_enrichment')!;
    expect(t.nodes.map((n) => n.type)).toEqual(['partition', 'prompter', 'prompter', 'prompter']);
    expect(t.nodes[0]!.settings).toMatchObject({ strategy: 'hi_res' });
  });

  it.each(BUILTIN_TEMPLATES.map((t) => [t.id, t] as const))('%s is a valid node list', (_id, t) => {
    const r = validateWorkflow({ name: t.id, workflow_type: 'custom', workflow_nodes: t.nodes }, { now: new Date('2026-01-01T00:00:00Z') });
    expect(r.problems).toEqual([]);
  });

  it('come with nodesPlugin, and another plugin cannot supply the same id', () => {
    const engine = createEngine().use(nodesPlugin);
    expect(engine.registry.templates().map((t) => t.id)).toEqual(BUILTIN_TEMPLATES.map((t) => t.id));
    const thief = definePlugin({ name: 'thief', engine: '*', templates: [{ ...BUILTIN_TEMPLATES[0]!, nodes: [] }] });
    let code = '';
    try {
      engine.use(thief);
    } catch (e) {
      code = isQuarryError(e) ? `${e.code}: ${e.message}` : String(e);
    }
    expect(code).toBe('DUPLICATE_TEMPLATE: plugin "thief": template "hi_res_partition" is already supplied by plugin "@quarry/nodes"');
  });
});

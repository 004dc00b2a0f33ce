import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/service/index.js';

describe('BUILTIN_TEMPLATES', () => {
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
});

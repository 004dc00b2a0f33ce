import { describe, expect, it } from 'vitest';
import { workflowBodySchemas } from '@quarry/core';
import { builtinRegistry, customBody, nodes } from './helpers.js';

const { create: workflowCreateBody, update: workflowUpdateBody, node: workflowNode } = workflowBodySchemas(builtinRegistry());

const codes = (r: { success: boolean; error?: { issues: Array<{ code: string; params?: Record<string, unknown> }> } }) =>
  (r.error?.issues ?? []).map((i) => (i.code === 'custom' ? String(i.params?.code) : i.code));

describe('workflowCreateBody (zod)', () => {
  it('parses a valid body with defaults, aliases rewritten and nulls dropped', () => {
    const r = workflowCreateBody.safeParse(
      customBody([nodes.auto(), nodes.prompter('provider_c_ner', { provider_type: 'openai', model: 'gpt-4o' }), nodes.chunk()], { schedule: null }),
    );
    expect(r.success).toBe(true);
    expect(r.data).not.toHaveProperty('schedule');
    expect(r.data?.reprocess_all).toBe(true);
    expect(r.data?.workflow_nodes?.[1]).toEqual({
      name: 'Enrich provider_c_ner',
      type: 'prompter',
      subtype: 'openai_ner',
      settings: { provider_type: 'openai', model: 'gpt-4o' },
    });
  });

  it('runs the SPEC rules once the structure is valid, with codes in params', () => {
    expect(codes(workflowCreateBody.safeParse(customBody([nodes.auto(), nodes.embed(), nodes.chunk()])))).toEqual(['order.embed_not_last']);
    expect(codes(workflowCreateBody.safeParse({ name: 'l', workflow_type: 'template' }))).toEqual(['template.template_id_required', 'local.custom_required']);
    expect(codes(workflowCreateBody.safeParse(customBody([nodes.vlm(), nodes.imageDescription()])))).toEqual(['enrichment.not_allowed_with_vlm']);
  });

  it('rejects subtypes the registry does not hold', () => {
    const r = workflowCreateBody.safeParse(customBody([nodes.auto(), nodes.prompter('uppercase')]));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['workflow_nodes', 1, 'subtype']);
  });

  it('parses omitted settings through the subtype schema', () => {
    expect(workflowNode.safeParse({ name: 'C', type: 'chunk', subtype: 'chunk_by_page' }).data?.settings).toMatchObject({ include_orig_elements: false });
    expect(workflowNode.safeParse({ name: 'P', type: 'partition', subtype: 'vlm' }).success).toBe(false);
  });
});

describe('workflowUpdateBody (zod)', () => {
  it('makes every field optional without defaults', () => {
    expect(workflowUpdateBody.parse({})).toEqual({});
    expect(workflowUpdateBody.parse({ name: 'n', workflow_type: 'TEMPLATE' })).toEqual({ name: 'n', workflow_type: 'template' });
    expect(workflowUpdateBody.safeParse({ workflow_type: 'basic' }).success).toBe(false);
  });
});

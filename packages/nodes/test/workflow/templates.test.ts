import { BUILTIN_TEMPLATES } from '@quarry/core/service';
import { describe, expect, it } from 'vitest';
import { validateWorkflow } from './helpers.js';

describe('BUILTIN_TEMPLATES with the built-in nodes', () => {
  it.each(BUILTIN_TEMPLATES.map((t) => [t.id, t] as const))('%s is a valid node list', (_id, t) => {
    const r = validateWorkflow({ name: t.id, workflow_type: 'custom', workflow_nodes: t.nodes }, { now: new Date('2026-01-01T00:00:00Z') });
    expect(r.problems).toEqual([]);
  });
});

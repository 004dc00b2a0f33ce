import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEngine, defineNode, definePlugin, type QuarryError } from '../src/index.js';
import type { PlanProblem } from '../src/plan/plan.js';

const node = (type: 'partition' | 'chunk' | 'prompter', subtype: string, settings = z.object({}).strict()) =>
  defineNode({ type, subtype, settings, create: () => ({ process: (f) => f.elements }) });

function problemsOf(fn: () => unknown): PlanProblem[] {
  try {
    fn();
  } catch (e) {
    expect((e as QuarryError).code).toBe('WORKFLOW_INVALID');
    return (e as QuarryError).details.problems as PlanProblem[];
  }
  throw new Error('expected WORKFLOW_INVALID');
}

const partition = { name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } };

describe('Engine.build', () => {
  it('compiles a valid workflow into a frozen plan with parsed settings', () => {
    const engine = createEngine().use(
      definePlugin({
        name: 't',
        engine: '*',
        nodes: [node('partition', 'unstructured_api', z.object({ strategy: z.string(), extra: z.number().default(3) }).passthrough())],
      }),
    );
    const plan = engine.build({ name: 'w', workflow_type: 'custom', workflow_nodes: [partition] });
    expect(plan.name).toBe('w');
    expect(plan.nodes.map((n) => n.subtype)).toEqual(['unstructured_api']);
    expect(plan.nodes[0]!.parsedSettings).toMatchObject({ strategy: 'fast', extra: 3 });
    expect(Object.isFrozen(plan)).toBe(true);
  });

  it('freezes the engine at the first build: a later use() (or registry.register) throws ENGINE_FROZEN, and the plan still runs on what was registered', () => {
    const engine = createEngine().use(
      definePlugin({ name: 't', engine: '*', nodes: [node('partition', 'unstructured_api', z.object({ strategy: z.string() }).passthrough())] }),
    );
    const late = definePlugin({ name: 'late', engine: '*', nodes: [node('chunk', 'chunk_by_title', z.object({}).passthrough())] });
    // A failed build uses the engine too: its problems were judged against these plugins.
    expect(() => engine.build({ name: 'w', nodes: [{ name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings: {} }] })).toThrow(
      expect.objectContaining({ code: 'WORKFLOW_INVALID' }),
    );
    expect(() => engine.use(late)).toThrow(expect.objectContaining({ code: 'ENGINE_FROZEN', message: expect.stringContaining('"late"') }));
    expect(() => engine.registry.register(late)).toThrow(expect.objectContaining({ code: 'ENGINE_FROZEN' }));
    expect(() => engine.build({ name: 'w', nodes: [{ name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings: {} }] })).toThrow(
      expect.objectContaining({ code: 'WORKFLOW_INVALID' }),
    );
    expect(engine.build({ name: 'w', workflow_type: 'custom', workflow_nodes: [partition] }).nodes).toHaveLength(1);
  });

  it('reports a subtype that no plugin registers, listing what is registered', () => {
    const engine = createEngine().use(
      definePlugin({
        name: 't',
        engine: '*',
        nodes: [
          node('partition', 'unstructured_api', z.object({ strategy: z.string() }).passthrough()),
          node('chunk', 'chunk_by_title', z.object({}).passthrough()),
        ],
      }),
    );
    const problems = problemsOf(() =>
      engine.build({ name: 'w', workflow_type: 'custom', workflow_nodes: [partition, { name: 'C', type: 'chunk', subtype: 'chunk_by_page', settings: {} }] }),
    );
    expect(problems).toEqual([
      { code: 'node.unknown_subtype', path: '/workflow_nodes/1/subtype', message: 'unknown chunk subtype "chunk_by_page"; allowed: chunk_by_title' },
    ]);
  });

  it('reports stage mismatches of library pipelines with custom nodes', () => {
    const engine = createEngine().use(
      definePlugin({
        name: 't',
        engine: '*',
        nodes: [node('partition', 'unstructured_api', z.object({ strategy: z.string() }).passthrough()), node('prompter', 'redact')],
      }),
    );
    // A library pipeline is still validated with the SPEC rules, then stage-checked.
    const problems = problemsOf(() => engine.build({ name: 'lib', nodes: [{ name: 'R', type: 'prompter', subtype: 'redact', settings: {} }] }));
    expect(problems.map((p) => p.code)).toContain('order.partition_required');
    const plan = engine.build({
      name: 'lib',
      nodes: [
        { ...partition, type: 'partition' },
        { name: 'R', type: 'prompter', subtype: 'redact', settings: {} },
      ],
    });
    expect(plan.nodes.map((n) => n.name)).toEqual(['P', 'R']);
  });

  it('resolves templates and reports an unknown one', () => {
    const engine = createEngine().use(
      definePlugin({ name: 't', engine: '*', nodes: [node('partition', 'unstructured_api', z.object({ strategy: z.string() }).passthrough())] }),
    );
    const templates = (id: string) =>
      id === 'fast_only' ? [{ name: 'P', type: 'partition' as const, subtype: 'unstructured_api', settings: { strategy: 'fast' } }] : undefined;
    expect(
      engine.build({ name: 'w', workflow_type: 'template', template_id: 'fast_only', source_id: 's1', destination_id: 'd1' }, { templates }).nodes,
    ).toHaveLength(1);
    expect(problemsOf(() => engine.build({ name: 'w', workflow_type: 'template', template_id: 'nope', source_id: 's1' }, { templates }))).toEqual([
      { code: 'template.not_found', path: '/template_id', message: 'template "nope" not found' },
    ]);
  });

  it('reports a settings problem against the node plugin schema with a JSON pointer and the zod issue code', () => {
    const engine = createEngine().use(
      definePlugin({
        name: 't',
        engine: '*',
        nodes: [
          node('partition', 'unstructured_api', z.object({ strategy: z.string() }).passthrough()),
          node('prompter', 'redact', z.object({ words: z.array(z.string()) }).strict()),
        ],
      }),
    );
    const problems = problemsOf(() =>
      engine.build({
        name: 'w',
        workflow_type: 'custom',
        workflow_nodes: [partition, { name: 'R', type: 'prompter', subtype: 'redact', settings: { words: [1] } }],
      }),
    );
    expect(problems).toEqual([expect.objectContaining({ code: 'schema.invalid_type', path: '/workflow_nodes/1/settings/words/0' })]);
  });
});

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineNode, definePlugin, Registry, type ProcessNode } from '../../src/plugin/index.js';
import { lazySchema } from '../../src/workflow/zod-lib.js';
import { nodeLabel, nodePath, settingKeysOf, validateWorkflow, workflowBodySchemas, workflowJsonSchema, type Problem } from '../../src/workflow/index.js';

const passThrough = (): ProcessNode => ({ process: (flow) => flow.elements });

/** Nodes of a plugin that declare what the built-in nodes declare: aliases, their own rules, worded problems, rule 5 facts. */
const partition = defineNode({
  type: 'partition',
  subtype: 'plain',
  settings: z.strictObject({ mode: z.enum(['lines', 'paragraphs']).default('lines') }),
  create: passThrough,
});
const shout = defineNode({
  type: 'prompter',
  subtype: 'shout',
  aliases: ['yell'],
  settings: z.strictObject({ volume: z.number().int().min(1).max(11).default(5) }),
  unknownSetting: (key) => (key === 'whisper' ? { code: 'settings.not_applicable', message: 'shout never whispers' } : undefined),
  unknownSubtype: (subtype) => (subtype.endsWith('_shout') ? { code: 'prompter.provider_not_allowed', message: `no provider shouts: ${subtype}` } : undefined),
  // Its own rule: it cannot follow a partitioner in paragraph mode.
  check: (self, { nodes }) =>
    nodes.some((n) => n.type === 'partition' && n.settings.mode === 'paragraphs')
      ? [{ code: 'enrichment.no_output_with_fast', path: nodePath(self), message: `${nodeLabel(self)} finds no lines to shout after paragraph mode` }]
      : [],
  create: passThrough,
});
const whisper = defineNode({ type: 'prompter', subtype: 'whisper', settings: z.strictObject({ whisper: z.boolean().default(true) }), create: passThrough });
const lines = defineNode({
  type: 'chunk',
  subtype: 'lines',
  settings: {
    type: 'object',
    properties: { max_characters: { type: 'integer', minimum: 1 }, max_lines: { type: 'integer', minimum: 1, default: 3 } },
    additionalProperties: false,
  },
  chunkMaxCharacters: (s) => ({ max: typeof s.max_characters === 'number' ? s.max_characters : 300, unset: s.max_characters === undefined }),
  create: passThrough,
});
const vectors = defineNode({
  type: 'embed',
  subtype: 'vectors',
  settings: z.strictObject({ model_name: z.string() }),
  registeredModelsOnly: true,
  create: passThrough,
});

function registry(): Registry {
  const r = new Registry();
  r.register(
    definePlugin({
      name: 'rules-test',
      engine: '*',
      nodes: [partition, shout, whisper, lines, vectors],
      embeddingModels: [{ provider: 'vectors', model_name: 'small', dimensions: 8, max_tokens: 64, max_characters: 200 }],
    }),
  );
  return r;
}

const body = (nodes: unknown[]) => ({ name: 'wf', source_id: 's', workflow_type: 'custom', workflow_nodes: nodes });
const codesAt = (problems: readonly Problem[]) => problems.map((p) => `${p.code} @ ${p.path}`);
const node = (type: string, subtype: string, settings: Record<string, unknown> = {}) => ({ name: subtype, type, subtype, settings });

describe('validateWorkflow: the rules registered nodes declare', () => {
  it('rewrites an alias to the subtype and applies the schema defaults', () => {
    const r = validateWorkflow(body([node('partition', 'plain'), node('prompter', 'yell')]), { registry: registry() });
    expect(r.valid && r.value.workflow_nodes?.[1]).toEqual({ name: 'yell', type: 'prompter', subtype: 'shout', settings: { volume: 5 } });
  });

  it("runs a node's own check against the rest of the workflow", () => {
    const r = validateWorkflow(body([node('partition', 'plain', { mode: 'paragraphs' }), node('prompter', 'shout')]), { registry: registry() });
    expect(r.problems).toEqual([
      { code: 'enrichment.no_output_with_fast', path: '/workflow_nodes/1', message: '"shout" (workflow_nodes/1) finds no lines to shout after paragraph mode' },
    ]);
  });

  it('words unknown settings and subtypes as the node says, else names sibling subtypes or the allowed keys', () => {
    const r = validateWorkflow(
      body([
        node('partition', 'plain', { depth: 1 }),
        node('prompter', 'shout', { whisper: true, volume: 12 }),
        node('prompter', 'loud_shout'),
        node('prompter', 'murmur'),
      ]),
      { registry: registry() },
    );
    expect(r.problems).toEqual([
      { code: 'schema.unknown_key', path: '/workflow_nodes/0/settings/depth', message: 'unknown setting "depth" for partition/plain; allowed: mode' },
      { code: 'schema.out_of_range', path: '/workflow_nodes/1/settings/volume', message: expect.any(String) },
      { code: 'settings.not_applicable', path: '/workflow_nodes/1/settings/whisper', message: 'shout never whispers' },
      { code: 'prompter.provider_not_allowed', path: '/workflow_nodes/2/subtype', message: 'no provider shouts: loud_shout' },
      { code: 'node.unknown_subtype', path: '/workflow_nodes/3/subtype', message: 'unknown prompter subtype "murmur"; allowed: shout, whisper' },
    ]);
    const sibling = validateWorkflow(body([node('partition', 'plain'), node('prompter', 'whisper', { volume: 3 })]), { registry: registry() });
    expect(sibling.problems.map((p) => p.message)).toEqual(['setting "volume" applies only to prompter subtype shout, not whisper']);
  });

  it('checks JSON Schema settings with settings.invalid problems', () => {
    const r = validateWorkflow(body([node('partition', 'plain'), node('chunk', 'lines', { max_lines: 0 })]), { registry: registry() });
    expect(codesAt(r.problems)).toEqual(['settings.invalid @ /workflow_nodes/1/settings/max_lines']);
  });

  it("applies rule 5 with the chunker's declared maximum and the embedder's registered models", () => {
    const r = registry();
    expect(
      codesAt(
        validateWorkflow(body([node('partition', 'plain'), node('chunk', 'lines'), node('embed', 'vectors', { model_name: 'small' })]), { registry: r })
          .problems,
      ),
    ).toEqual(['order.max_characters_exceeds_model @ /workflow_nodes/1/settings/max_characters']);
    expect(
      validateWorkflow(body([node('partition', 'plain'), node('chunk', 'lines', { max_characters: 200 }), node('embed', 'vectors', { model_name: 'small' })]), {
        registry: r,
      }).valid,
    ).toBe(true);
    expect(
      codesAt(
        validateWorkflow(body([node('partition', 'plain'), node('chunk', 'lines'), node('embed', 'vectors', { model_name: 'large' })]), { registry: r })
          .problems,
      ),
    ).toEqual(['embed.unknown_model @ /workflow_nodes/2/settings/model_name']);
  });

  it('knows no subtype without a registry, but still checks the workflow shape', () => {
    expect(codesAt(validateWorkflow(body([node('chunk', 'lines'), node('partition', 'plain')])).problems)).toEqual([
      'node.unknown_subtype @ /workflow_nodes/0/subtype',
      'node.unknown_subtype @ /workflow_nodes/1/subtype',
      'order.partition_not_first @ /workflow_nodes/1',
    ]);
  });

  it('derives setting keys from zod objects and JSON Schema properties', () => {
    expect(settingKeysOf(shout)).toEqual(['volume']);
    expect(settingKeysOf(lines)).toEqual(['max_characters', 'max_lines']);
  });
});

describe('workflowBodySchemas / workflowJsonSchema', () => {
  it('describe the nodes a registry holds, aliases included', () => {
    const { create } = workflowBodySchemas(registry());
    const parsed = create.parse(body([node('partition', 'plain'), node('prompter', 'yell', { volume: 2 })]));
    expect(parsed.workflow_nodes?.[1]).toEqual({ name: 'yell', type: 'prompter', subtype: 'shout', settings: { volume: 2 } });
    expect(create.safeParse(body([node('partition', 'plain'), node('prompter', 'murmur')])).success).toBe(false);
    const validate = new Ajv({ strict: true, allErrors: true }).compile(workflowJsonSchema(registry()));
    expect(validate(body([node('partition', 'plain'), node('chunk', 'lines', { max_lines: 2 })]))).toBe(true);
    expect(validate(body([node('partition', 'plain', { mode: 'pages' })]))).toBe(false);
  });

  // Built-in nodes build their schemas on first validation, so that importing a plugin loads no zod.
  it('registers a node whose settings getter builds its schema without calling it, and validates with it as with a plain schema', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.strictObject({ mode: z.enum(['lines', 'paragraphs']).default('lines') });
    });
    const lazyPartition = defineNode({
      type: 'partition',
      subtype: 'plain',
      get settings() {
        return schema();
      },
      create: passThrough,
    });
    const r = new Registry();
    r.register(definePlugin({ name: 'lazy', engine: '*', nodes: [lazyPartition] }));
    expect(builds).toBe(0);
    for (const settings of [{}, { mode: 'pages' }, { mode: 'lines', extra: 1 }]) {
      const lazy = validateWorkflow(body([node('partition', 'plain', settings)]), { registry: r });
      const eager = validateWorkflow(body([node('partition', 'plain', settings)]), { registry: registry() });
      expect(lazy).toEqual(eager);
    }
    expect(builds).toBe(1);
  });
});

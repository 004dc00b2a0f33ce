import { describe, expect, it } from 'vitest';
import { SCHEDULE_PHRASE_LIST, validateWorkflow as coreValidateWorkflow, type Problem } from '@quarry/core';
import { PROMPTER_SUBTYPES } from '../../src/prompter/prompter-tasks.js';
import { D4_MODELS, codesAt, customBody, nodes, only, testRegistry, validateWorkflow } from './helpers.js';
import { NER_PROMPT_OK } from './problem-fixtures.js';

const valid = (body: unknown, options?: Parameters<typeof validateWorkflow>[1]) => {
  const r = validateWorkflow(body, options);
  if (!r.valid) throw new Error(`expected valid, got ${JSON.stringify(r.problems, null, 2)}`);
  return r.value;
};
const problemsOf = (body: unknown, options?: Parameters<typeof validateWorkflow>[1]): Problem[] => {
  const r = validateWorkflow(body, options);
  expect(r.valid).toBe(false);
  return r.problems;
};

describe('validateWorkflow: body shape', () => {
  it.each([null, undefined, 42, 'workflow', [], [customBody()]])('rejects a non-object body (%j) at the root without throwing', (body) => {
    expect(codesAt(problemsOf(body))).toEqual(['schema.invalid_type @ ']);
  });

  it('applies defaults, rewrites provider aliases and drops nulls in the returned value', () => {
    const value = valid(
      customBody(
        [
          { name: 'P', type: 'partition', subtype: 'vlm', settings: { is_dynamic: true, allow_fast: true, provider: 'provider_c' } },
          nodes.prompter('provider_a_image_description', { provider_type: 'provider_a', model: 'claude-sonnet-4-20250514' }),
          { name: 'C', type: 'chunk', subtype: 'chunk_by_title', id: 'node-3' },
        ],
        { destination_id: null, schedule: null },
      ),
    );
    expect(value).toEqual({
      name: 'wf',
      source_id: 'src-1',
      workflow_type: 'custom',
      reprocess_all: true,
      workflow_nodes: [
        {
          name: 'P',
          type: 'partition',
          subtype: 'vlm',
          settings: {
            provider: 'openai',
            provider_api_key: null,
            model: 'gpt-4o',
            output_format: 'text/html',
            format_html: true,
            unique_element_ids: true,
            is_dynamic: true,
            allow_fast: true,
          },
        },
        {
          name: 'Enrich provider_a_image_description',
          type: 'prompter',
          subtype: 'anthropic_image_description',
          settings: { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' },
        },
        {
          id: 'node-3',
          name: 'C',
          type: 'chunk',
          subtype: 'chunk_by_title',
          settings: { unstructured_api_url: null, unstructured_api_key: null, include_orig_elements: false, overlap_all: false, multipage_sections: false },
        },
      ],
    });
  });

  it('requires name and workflow_type and rejects unknown top-level fields', () => {
    const problems = problemsOf({ workflow_nodes: [nodes.auto()], sources: ['x'] });
    expect(codesAt(problems)).toEqual(['schema.required @ /name', 'schema.required @ /workflow_type', 'schema.unknown_key @ /sources']);
    expect(only(problems, 'schema.unknown_key').message).toContain('workflow fields are name, source_id');
  });

  it('checks field types: reprocess_all boolean, ids non-empty strings', () => {
    const problems = problemsOf(customBody(undefined, { reprocess_all: 'no', source_id: 7, destination_id: '' }));
    expect(codesAt(problems)).toEqual(['schema.invalid_type @ /source_id', 'schema.too_short @ /destination_id', 'schema.invalid_type @ /reprocess_all']);
    expect(problems[2]!.message).toBe('expected boolean, got "no"');
  });

  it('keeps reprocess_all false and accepts the SDK spelling CUSTOM', () => {
    const v = valid(customBody(undefined, { reprocess_all: false, workflow_type: 'CUSTOM' }));
    expect(v.reprocess_all).toBe(false);
    expect(v.workflow_type).toBe('custom');
  });

  it('points into node fields and rejects unknown node fields', () => {
    const problems = problemsOf(customBody([{ ...nodes.auto(), label: 'x' }, { type: 'chunk', subtype: 'chunk_by_title', settings: [] }, 'chunk']));
    expect(codesAt(problems)).toEqual([
      'schema.unknown_key @ /workflow_nodes/0/label',
      'schema.required @ /workflow_nodes/1/name',
      'schema.invalid_type @ /workflow_nodes/1/settings',
      'schema.invalid_type @ /workflow_nodes/2',
    ]);
  });

  it('escapes JSON pointer segments (RFC 6901)', () => {
    const problems = problemsOf(customBody([nodes.auto({ 'a/b': 1, 'c~d': 2 })]));
    expect(problems.map((p) => p.path)).toEqual(['/workflow_nodes/0/settings/a~1b', '/workflow_nodes/0/settings/c~0d']);
  });

  it('never throws on odd input', () => {
    const odd: unknown[] = [
      { workflow_nodes: 'x' },
      { workflow_nodes: [null, 1, [], { type: 1, subtype: {}, settings: 'x' }] },
      { name: { a: 1 }, workflow_type: ['custom'], schedule: 5, template_id: false },
      customBody([{ name: 'P', type: 'partition', subtype: 'vlm', settings: { is_dynamic: 'yes', allow_fast: 1, model: 3, provider: null } }]),
      customBody([nodes.auto(), { name: 'N', type: 'prompter', subtype: 'openai_ner', settings: { prompt_interface_overrides: { prompt: 'x' } } }]),
      customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: '500', overlap: {}, combine_text_under_n_chars: 1.5 })]),
      Object.create(null),
    ];
    for (const body of odd) {
      for (const mode of ['create', 'update'] as const) {
        const r = validateWorkflow(body, { mode, registry: testRegistry() });
        // An empty object is a valid (no-op) update; everything else here is invalid.
        expect(r.valid).toBe(mode === 'update' && Object.keys(body as object).length === 0);
        for (const p of r.problems) expect(p.path === '' || p.path.startsWith('/')).toBe(true);
      }
    }
  });
});

describe('validateWorkflow: workflow_type and template', () => {
  it.each(['advanced', 'basic', 'platinum', 'ADVANCED'])('rejects %s as non-operational', (t) => {
    const p = only(problemsOf(customBody(undefined, { workflow_type: t })), 'workflow_type.non_operational');
    expect(p.path).toBe('/workflow_type');
    expect(p.message).toContain('non-operational');
  });

  it.each(['auto', 'automatic'])('rejects %s as unavailable', (t) => {
    expect(only(problemsOf(customBody(undefined, { workflow_type: t })), 'workflow_type.unavailable').message).toContain('not available');
  });

  it('rejects any other workflow_type with the allowed values', () => {
    expect(only(problemsOf(customBody(undefined, { workflow_type: 'pipeline' })), 'schema.invalid_value').message).toBe(
      'workflow_type must be "custom" or "template"; got "pipeline"',
    );
  });

  it('accepts a template workflow with template_id and no nodes', () => {
    expect(valid({ name: 't', source_id: 's', destination_id: 'd', workflow_type: 'template', template_id: 'hi_res_and_enrichment' })).toEqual({
      name: 't',
      source_id: 's',
      destination_id: 'd',
      workflow_type: 'template',
      template_id: 'hi_res_and_enrichment',
      reprocess_all: true,
    });
  });

  it('requires template_id for template and forbids nodes there (also an empty list)', () => {
    expect(codesAt(problemsOf({ name: 't', source_id: 's', workflow_type: 'template', workflow_nodes: [] }))).toEqual([
      'template.workflow_nodes_not_allowed @ /workflow_nodes',
      'template.template_id_required @ /template_id',
    ]);
  });

  it('requires non-empty workflow_nodes for custom and forbids template_id', () => {
    expect(codesAt(problemsOf({ name: 'c', source_id: 's', workflow_type: 'custom' }))).toEqual(['custom.workflow_nodes_required @ /workflow_nodes']);
    expect(codesAt(problemsOf(customBody(null as unknown as unknown[])))).toEqual(['custom.workflow_nodes_required @ /workflow_nodes']);
    expect(codesAt(problemsOf(customBody([])))).toEqual(['custom.workflow_nodes_required @ /workflow_nodes']);
    expect(codesAt(problemsOf(customBody(undefined, { template_id: 'x' })))).toEqual(['custom.template_id_not_allowed @ /template_id']);
  });
});

describe('validateWorkflow: local source and destination rules', () => {
  it('rule 1: no source_id and no destination_id with custom is valid', () => {
    const v = valid({ name: 'local', workflow_type: 'custom', workflow_nodes: [nodes.auto()] });
    expect(v).not.toHaveProperty('source_id');
    expect(v).not.toHaveProperty('destination_id');
  });

  it('rule 2: destination_id only with custom is valid', () => {
    expect(valid({ name: 'local', destination_id: 'd', workflow_type: 'custom', workflow_nodes: [nodes.auto()] }).destination_id).toBe('d');
  });

  it('rules 1-2: a local source needs workflow_type custom', () => {
    const problems = problemsOf({ name: 'local', destination_id: 'd', workflow_type: 'template', template_id: 'hi_res_partition' });
    expect(codesAt(problems)).toEqual(['local.custom_required @ /workflow_type']);
  });

  it('rule 3: a local source cannot have a schedule; a remote source can', () => {
    expect(codesAt(problemsOf({ name: 'l', workflow_type: 'custom', workflow_nodes: [nodes.auto()], schedule: 'weekly' }))).toEqual([
      'local.schedule_not_allowed @ /schedule',
    ]);
    expect(valid(customBody(undefined, { schedule: 'weekly' })).schedule).toBe('weekly');
  });

  it('a local destination with a remote source may be scheduled', () => {
    expect(valid(customBody(undefined, { destination_id: undefined, schedule: 'monthly' })).schedule).toBe('monthly');
  });
});

describe('validateWorkflow: schedule', () => {
  it.each(SCHEDULE_PHRASE_LIST)('accepts %s', (phrase) => {
    expect(valid(customBody(undefined, { schedule: phrase })).schedule).toBe(phrase);
  });

  it('forgives case and blank runs, returning the canonical phrase', () => {
    expect(valid(customBody(undefined, { schedule: '  Every  2 HOURS ' })).schedule).toBe('every 2 hours');
  });

  it.each(['hourly', 'every 3 hours', '0 * * * *', 'every 30 minutes'])('rejects %s and lists the phrases', (s) => {
    const p = only(problemsOf(customBody(undefined, { schedule: s })), 'schedule.unknown_phrase');
    expect(p.message).toContain('"every 15 minutes"');
    expect(p.message).toContain('"monthly"');
  });

  it('rejects a non-string schedule', () => {
    expect(codesAt(problemsOf(customBody(undefined, { schedule: 15 })))).toEqual(['schema.invalid_type @ /schedule']);
  });
});

describe('validateWorkflow: node ordering rules', () => {
  it('accepts Partitioner -> Enrichment -> Chunker -> Embedder and shorter chains', () => {
    valid(customBody([nodes.hiRes(), nodes.imageDescription(), nodes.ner(), nodes.chunk(), nodes.embed()]));
    valid(customBody([nodes.auto()]));
    valid(customBody([nodes.auto(), nodes.chunk()]));
    valid(customBody([nodes.auto(), nodes.ner()]));
  });

  it('rule 3: only the four node kinds', () => {
    const p = only(problemsOf(customBody([nodes.auto(), { name: 'D', type: 'destination', subtype: 'search_index', settings: {} }])), 'node.unknown_type');
    expect(p.path).toBe('/workflow_nodes/1/type');
    expect(p.message).toBe('unknown node type "destination"; allowed: "partition", "prompter", "chunk", "embed"');
  });

  it('requires exactly one partition node, first', () => {
    expect(codesAt(problemsOf(customBody([nodes.ner(), nodes.chunk()])))).toEqual(['order.partition_required @ /workflow_nodes']);
    expect(codesAt(problemsOf(customBody([nodes.ner(), nodes.auto(), nodes.chunk()])))).toEqual(['order.partition_not_first @ /workflow_nodes/1']);
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.fast()])))).toEqual(['order.multiple_partitions @ /workflow_nodes/2']);
  });

  it('rule 4: the chunker follows all enrichment nodes', () => {
    const problems = problemsOf(customBody([nodes.hiRes(), nodes.chunk(), nodes.imageDescription(), nodes.ner()]));
    expect(codesAt(problems)).toEqual(['order.chunker_before_enrichment @ /workflow_nodes/2', 'order.chunker_before_enrichment @ /workflow_nodes/3']);
    expect(problems[0]!.message).toContain('"Chunker" (workflow_nodes/1)');
  });

  it('allows at most one chunker and one embedder, the embedder last and after a chunker', () => {
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.chunk('chunk_by_page')])))).toEqual([
      'order.multiple_chunkers @ /workflow_nodes/2',
    ]);
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.embed(), nodes.embed('voyageai', 'voyage-3')])))).toEqual([
      'order.multiple_embedders @ /workflow_nodes/3',
    ]);
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.embed(), nodes.chunk()])))).toEqual(['order.embed_not_last @ /workflow_nodes/1']);
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.embed()])))).toEqual(['order.embed_requires_chunker @ /workflow_nodes/1']);
  });
});

describe('validateWorkflow: rule 5, chunk size vs embedding model (with a registry)', () => {
  const registry = testRegistry();

  it.each(D4_MODELS.map((m) => [m.provider, m.model_name, m.max_characters] as const))(
    '%s %s: max_characters %i passes, one more fails',
    (provider, model, max) => {
      valid(customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: max }), nodes.embed(provider, model)]), { registry });
      const p = only(
        problemsOf(customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: max + 1 }), nodes.embed(provider, model)]), { registry }),
        'order.max_characters_exceeds_model',
      );
      expect(p.path).toBe('/workflow_nodes/1/settings/max_characters');
      expect(p.message).toContain(String(max + 1));
      expect(p.message).toContain(String(max));
      expect(p.message).toContain(model);
    },
  );

  it('uses the library default 500 when max_characters is unset', () => {
    const body = customBody([nodes.auto(), nodes.chunk('chunk_by_character'), nodes.embed('tiny_local', 'tiny-bert')]);
    const p = only(problemsOf(body, { registry }), 'order.max_characters_exceeds_model');
    expect(p.message).toBe(
      "the chunker's max_characters 500 (unset: the library default) exceeds 400, the recommended maximum chunk size of embedding model tiny-bert (tiny_local); set max_characters to 400 or less",
    );
    valid(customBody([nodes.auto(), nodes.chunk('chunk_by_character', { max_characters: 400 }), nodes.embed('tiny_local', 'tiny-bert')]), { registry });
  });

  it('names the known models of the subtype for an unknown model', () => {
    const p = only(problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.embed('voyageai', 'voyage-2')]), { registry }), 'embed.unknown_model');
    expect(p.message).toBe(
      'unknown voyageai embedding model "voyage-2"; known voyageai models: voyage-3, voyage-3-large, voyage-3-lite, voyage-code-2, voyage-code-3, voyage-finance-2, voyage-law-2, voyage-multimodal-3',
    );
    expect(
      only(
        problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.embed('ibm', 'ibm/granite-embedding-278m-multilingual')]), { registry }),
        'embed.unknown_model',
      ).message,
    ).toContain('(none registered)');
  });

  it('knows no subtype without a registry: only the workflow shape is checked', () => {
    const body = customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: 100000 }), nodes.embed('voyageai', 'voyage-2')]);
    expect(codesAt(coreValidateWorkflow(body).problems)).toEqual([
      'node.unknown_subtype @ /workflow_nodes/0/subtype',
      'node.unknown_subtype @ /workflow_nodes/1/subtype',
      'node.unknown_subtype @ /workflow_nodes/2/subtype',
    ]);
    expect(coreValidateWorkflow(customBody([nodes.chunk(), nodes.auto()])).problems.map((p) => p.code)).toContain('order.partition_not_first');
  });

  it('rejects an embed subtype nothing registers, listing the registered ones', () => {
    const p = only(problemsOf(customBody([nodes.auto(), nodes.chunk(), nodes.embed('cohere', 'embed-v4')])), 'node.unknown_subtype');
    expect(p.message).toBe('unknown embed subtype "cohere"; allowed: azure_openai, bedrock, ibm, local, openai, togetherai, voyageai');
  });

  it('requires model_name', () => {
    const p = only(problemsOf(customBody([nodes.auto(), nodes.chunk(), { name: 'E', type: 'embed', subtype: 'bedrock', settings: {} }])), 'schema.required');
    expect(p.path).toBe('/workflow_nodes/2/settings/model_name');
  });
});

describe('validateWorkflow: partitioner variants', () => {
  it('Auto requires allow_fast true, given explicitly', () => {
    const missing = only(
      problemsOf(customBody([{ name: 'A', type: 'partition', subtype: 'vlm', settings: { is_dynamic: true } }])),
      'partition.auto_requires_allow_fast',
    );
    expect(missing.message).toContain('explicitly');
    only(problemsOf(customBody([nodes.auto({ allow_fast: false })])), 'partition.auto_requires_allow_fast');
  });

  it('VLM takes allow_fast optionally (default true) and is_dynamic is required', () => {
    expect(valid(customBody([nodes.vlm()])).workflow_nodes![0]!.settings.allow_fast).toBe(true);
    expect(valid(customBody([nodes.vlm({ allow_fast: false })])).workflow_nodes![0]!.settings.allow_fast).toBe(false);
    const p = only(problemsOf(customBody([{ name: 'V', type: 'partition', subtype: 'vlm', settings: {} }])), 'schema.required');
    expect(p).toEqual({
      code: 'schema.required',
      path: '/workflow_nodes/0/settings/is_dynamic',
      message: 'is_dynamic is required: true for Auto, false for VLM',
    });
  });

  it('High Res and Fast require strategy hi_res or fast', () => {
    expect(only(problemsOf(customBody([{ name: 'P', type: 'partition', subtype: 'unstructured_api' }])), 'schema.required').path).toBe(
      '/workflow_nodes/0/settings/strategy',
    );
    const p = only(problemsOf(customBody([nodes.hiRes({ strategy: 'ocr_only' })])), 'schema.invalid_value');
    expect(p.message).toBe('strategy must be one of "fast", "hi_res"; got "ocr_only"');
  });

  it('applies the High Res defaults', () => {
    expect(valid(customBody([nodes.hiRes()])).workflow_nodes![0]!.settings).toEqual({
      strategy: 'hi_res',
      include_page_breaks: false,
      pdf_infer_table_structure: false,
      xml_keep_tags: false,
      encoding: 'utf-8',
      ocr_languages: ['eng'],
      infer_table_structure: false,
      coordinates: false,
      unique_element_ids: true,
    });
  });

  it('checks exclude_elements, extract_image_block_types and output_format values', () => {
    const problems = problemsOf(
      customBody([nodes.hiRes({ exclude_elements: ['Header', 'Sidebar'], extract_image_block_types: ['Image', 'List-item', 'Photo'] })]),
    );
    expect(codesAt(problems)).toEqual([
      'schema.invalid_value @ /workflow_nodes/0/settings/exclude_elements/1',
      'schema.invalid_value @ /workflow_nodes/0/settings/extract_image_block_types/2',
    ]);
    expect(problems[0]!.message).toContain('"UncategorizedText"');
    expect(codesAt(problemsOf(customBody([nodes.auto({ output_format: 'text/plain' })])))).toEqual([
      'schema.invalid_value @ /workflow_nodes/0/settings/output_format',
    ]);
    valid(customBody([nodes.auto({ output_format: 'application/json' })]));
  });

  it('says which subtype a misplaced partition setting belongs to', () => {
    const p = only(problemsOf(customBody([nodes.auto({ strategy: 'hi_res' })])), 'settings.not_applicable');
    expect(p.message).toBe('setting "strategy" applies only to partition subtype unstructured_api, not vlm');
  });
});

describe('validateWorkflow: enrichment vs partitioner (SPEC conditions 1-5)', () => {
  const imageTable = ['anthropic_image_description', 'openai_table_description', 'anthropic_table2html', 'twopass_table2html', 'bedrock_ocr'];
  const settingsFor = (subtype: string) =>
    subtype === 'twopass_table2html'
      ? {}
      : subtype.startsWith('bedrock')
        ? { provider_type: 'bedrock', model: 'us.anthropic.claude-sonnet-4-20250514-v1:0' }
        : subtype.startsWith('openai')
          ? { provider_type: 'openai', model: 'gpt-4o' }
          : { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' };

  it.each(imageTable)('%s is allowed after Auto and High Res', (subtype) => {
    valid(customBody([nodes.auto(), nodes.prompter(subtype, settingsFor(subtype)), nodes.chunk()]));
    valid(customBody([nodes.hiRes(), nodes.prompter(subtype, settingsFor(subtype)), nodes.chunk()]));
  });

  it.each(imageTable)('%s is not allowed after VLM and never produces output after Fast', (subtype) => {
    expect(codesAt(problemsOf(customBody([nodes.vlm(), nodes.prompter(subtype, settingsFor(subtype))])))).toEqual([
      'enrichment.not_allowed_with_vlm @ /workflow_nodes/1',
    ]);
    expect(codesAt(problemsOf(customBody([nodes.fast(), nodes.prompter(subtype, settingsFor(subtype))])))).toEqual([
      'enrichment.no_output_with_fast @ /workflow_nodes/1',
    ]);
  });

  it('NER works on text, so it is allowed after VLM and Fast', () => {
    valid(customBody([nodes.vlm(), nodes.ner(), nodes.chunk()]));
    valid(customBody([nodes.fast(), nodes.ner(), nodes.chunk()]));
  });
});

describe('validateWorkflow: prompter subtypes and providers', () => {
  const modelOf: Record<string, string> = {
    anthropic: 'claude-sonnet-4-20250514',
    bedrock: 'us.amazon.nova-pro-v1:0',
    openai: 'gpt-4o',
    vertexai: 'gemini-2.0-flash-001',
  };

  it('knows exactly the 16 SPEC subtypes', () => {
    expect(PROMPTER_SUBTYPES).toEqual([
      'anthropic_image_description',
      'anthropic_ner',
      'anthropic_ocr',
      'anthropic_table2html',
      'anthropic_table_description',
      'bedrock_image_description',
      'bedrock_ocr',
      'bedrock_table_description',
      'openai_image_description',
      'openai_ner',
      'openai_ocr',
      'openai_table2html',
      'openai_table_description',
      'twopass_table2html',
      'vertexai_image_description',
      'vertexai_table_description',
    ]);
  });

  it.each(PROMPTER_SUBTYPES.filter((s) => s !== 'twopass_table2html'))('accepts %s with its provider_type', (subtype) => {
    const provider = subtype.split('_')[0]!;
    valid(customBody([nodes.hiRes(), nodes.prompter(subtype, { provider_type: provider, model: modelOf[provider] })]));
  });

  it.each(['vertexai_table2html', 'bedrock_table2html', 'bedrock_ner', 'vertexai_ner', 'vertexai_ocr', 'provider_d_ocr'])(
    'rejects %s: provider not allowed for the task',
    (subtype) => {
      const p = only(
        problemsOf(customBody([nodes.hiRes(), nodes.prompter(subtype, { provider_type: 'vertexai', model: 'gemini-2.0-flash-001' })])),
        'prompter.provider_not_allowed',
      );
      expect(p.path).toBe('/workflow_nodes/1/subtype');
    },
  );

  it('lists the allowed subtypes for an unknown prompter subtype', () => {
    const p = only(problemsOf(customBody([nodes.hiRes(), nodes.prompter('anthropic_summary', {})])), 'node.unknown_subtype');
    expect(p.message).toContain('<provider>_<task>');
    expect(p.message).toContain('anthropic_image_description, anthropic_ner');
  });

  it('accepts provider_a..provider_d aliases in subtype and provider_type, normalized', () => {
    const v = valid(
      customBody([
        nodes.hiRes(),
        nodes.prompter('provider_b_ocr', { provider_type: 'bedrock', model: 'us.amazon.nova-lite-v1:0' }),
        nodes.prompter('provider_d_table_description', { provider_type: 'provider_d', model: 'gemini-2.0-flash-001' }),
      ]),
    );
    expect(v.workflow_nodes!.map((n) => [n.subtype, n.settings.provider_type])).toEqual([
      ['unstructured_api', undefined],
      ['bedrock_ocr', 'bedrock'],
      ['vertexai_table_description', 'vertexai'],
    ]);
  });

  it('provider_type must equal the subtype provider (aliases compared by meaning)', () => {
    const p = only(
      problemsOf(customBody([nodes.hiRes(), nodes.prompter('openai_ocr', { provider_type: 'provider_a', model: 'gpt-4o' })])),
      'prompter.provider_type_mismatch',
    );
    expect(p.message).toBe('provider_type "provider_a" does not match the subtype openai_ocr, whose provider is openai');
  });

  it('requires provider_type and model on provider prompters', () => {
    expect(codesAt(problemsOf(customBody([nodes.hiRes(), nodes.prompter('anthropic_ocr', {})])))).toEqual([
      'schema.required @ /workflow_nodes/1/settings/provider_type',
      'schema.required @ /workflow_nodes/1/settings/model',
    ]);
  });

  it('twopass_table2html takes no provider_type or model', () => {
    valid(customBody([nodes.hiRes(), nodes.prompter('twopass_table2html')]));
    expect(codesAt(problemsOf(customBody([nodes.hiRes(), nodes.prompter('twopass_table2html', { provider_type: 'openai', model: 'gpt-4o' })])))).toEqual([
      'prompter.twopass_settings_not_allowed @ /workflow_nodes/1/settings/provider_type',
      'prompter.twopass_settings_not_allowed @ /workflow_nodes/1/settings/model',
    ]);
  });

  it('prompt_interface_overrides belongs to NER only', () => {
    const p = only(
      problemsOf(
        customBody([nodes.hiRes(), nodes.prompter('openai_table_description', { provider_type: 'openai', model: 'gpt-4o', prompt_interface_overrides: {} })]),
      ),
      'settings.not_applicable',
    );
    expect(p.message).toBe('setting "prompt_interface_overrides" applies only to prompter subtypes anthropic_ner, openai_ner, not openai_table_description');
  });
});

describe('validateWorkflow: NER prompt override', () => {
  const withPrompt = (user: unknown) => customBody([nodes.auto(), nodes.ner({ prompt_interface_overrides: { prompt: { user } } }), nodes.chunk()]);
  const at = '/workflow_nodes/1/settings/prompt_interface_overrides/prompt/user';

  it('accepts a full prompt, no override, or a null override', () => {
    expect(valid(withPrompt(NER_PROMPT_OK)).workflow_nodes![1]!.settings.prompt_interface_overrides).toEqual({ prompt: { user: NER_PROMPT_OK } });
    valid(withPrompt(null));
    valid(customBody([nodes.auto(), nodes.ner(), nodes.chunk()]));
  });

  it('needs {{text}} between the markers, in order', () => {
    const swapped = NER_PROMPT_OK.replace('[START OF TEXT]', '@@').replace('[END OF TEXT]', '[START OF TEXT]').replace('@@', '[END OF TEXT]');
    expect(only(problemsOf(withPrompt(swapped)), 'ner.prompt_text_placeholder').message).toBe(
      'the NER prompt must keep {{text}} between [START OF TEXT] and [END OF TEXT], in that order',
    );
    const p = only(problemsOf(withPrompt(NER_PROMPT_OK.replace('{{text}}', ''))), 'ner.prompt_text_placeholder');
    expect(p.path).toBe(at);
    expect(p.message).toContain('missing: {{text}}');
  });

  it('needs the JSON keys', () => {
    const p = only(
      problemsOf(withPrompt('List the people. [START OF TEXT]{{text}}[END OF TEXT] Answer with "items" of "entity" and "type".')),
      'ner.prompt_json_keys',
    );
    expect(p.message).toContain('not mentioned: relationships, from, relationship, to');
  });
});

describe('validateWorkflow: chunker settings (REFERENCE.md a3 messages verbatim)', () => {
  const chunk = (subtype: string, settings: Record<string, unknown>) => customBody([nodes.auto(), nodes.chunk(subtype, settings)]);
  const messages = (body: unknown) => problemsOf(body).map((p) => p.message);

  it.each([0, -1, -42])("max_characters %i: 'max_characters' argument must be > 0", (n) => {
    expect(messages(chunk('chunk_by_character', { max_characters: n }))).toEqual([`'max_characters' argument must be > 0, got ${n}`]);
  });

  it('new_after_n_chars must be >= 0 (0 is valid)', () => {
    expect(messages(chunk('chunk_by_page', { new_after_n_chars: -1 }))).toEqual(["'new_after_n_chars' argument must be >= 0, got -1"]);
    valid(chunk('chunk_by_page', { new_after_n_chars: 0 }));
    valid(chunk('chunk_by_page', { new_after_n_chars: 900, max_characters: 500 }));
  });

  it('overlap must be below max_characters, 500 when unset; negative overlap is not an error', () => {
    expect(messages(chunk('chunk_by_title', { overlap: 300, max_characters: 200 }))).toEqual([
      "'overlap' argument must be less than `max_characters`, got 300 >= 200",
    ]);
    expect(messages(chunk('chunk_by_title', { overlap: 500 }))).toEqual(["'overlap' argument must be less than `max_characters`, got 500 >= 500"]);
    valid(chunk('chunk_by_title', { overlap: 499 }));
    valid(chunk('chunk_by_title', { overlap: -5 }));
  });

  it('combine_text_under_n_chars must be within 0..max_characters (by_title)', () => {
    expect(messages(chunk('chunk_by_title', { combine_text_under_n_chars: -1 }))).toEqual(["'combine_text_under_n_chars' argument must be >= 0, got -1"]);
    expect(messages(chunk('chunk_by_title', { combine_text_under_n_chars: 600 }))).toEqual([
      "'combine_text_under_n_chars' argument must not exceed `max_characters` value, got 600 > 500",
    ]);
    expect(messages(chunk('chunk_by_title', { combine_text_under_n_chars: 600, max_characters: 450 }))).toEqual([
      "'combine_text_under_n_chars' argument must not exceed `max_characters` value, got 600 > 450",
    ]);
    valid(chunk('chunk_by_title', { combine_text_under_n_chars: 450, max_characters: 450 }));
  });

  it('reports every chunking problem of a node at once, even beside a type error', () => {
    expect(
      codesAt(
        problemsOf(chunk('chunk_by_title', { max_characters: 200, overlap: 250, new_after_n_chars: -3, combine_text_under_n_chars: 300, overlap_all: 'yes' })),
      ),
    ).toEqual([
      'schema.invalid_type @ /workflow_nodes/1/settings/overlap_all',
      'chunking.new_after_n_chars_negative @ /workflow_nodes/1/settings/new_after_n_chars',
      'chunking.overlap_too_large @ /workflow_nodes/1/settings/overlap',
      'chunking.combine_text_too_large @ /workflow_nodes/1/settings/combine_text_under_n_chars',
    ]);
  });

  it('integers only', () => {
    expect(codesAt(problemsOf(chunk('chunk_by_character', { max_characters: 12.5 })))).toEqual([
      'schema.invalid_type @ /workflow_nodes/1/settings/max_characters',
    ]);
  });

  it('similarity_threshold is within 0.01..0.99 and belongs to chunk_by_similarity', () => {
    valid(chunk('chunk_by_similarity', { similarity_threshold: 0.01 }));
    valid(chunk('chunk_by_similarity', { similarity_threshold: 0.99 }));
    for (const t of [0, 0.005, 0.995, 1]) {
      expect(only(problemsOf(chunk('chunk_by_similarity', { similarity_threshold: t })), 'schema.out_of_range').message).toBe(
        `similarity_threshold must be between 0.01 and 0.99 (0.0 to 1.0 exclusive); got ${t}`,
      );
    }
    expect(only(problemsOf(chunk('chunk_by_title', { similarity_threshold: 0.5 })), 'settings.not_applicable').message).toBe(
      'setting "similarity_threshold" applies only to chunk subtype chunk_by_similarity, not chunk_by_title',
    );
  });

  it('multipage_sections and combine_text_under_n_chars belong to chunk_by_title', () => {
    expect(codesAt(problemsOf(chunk('chunk_by_similarity', { multipage_sections: true, combine_text_under_n_chars: 10 })))).toEqual([
      'settings.not_applicable @ /workflow_nodes/1/settings/multipage_sections',
      'settings.not_applicable @ /workflow_nodes/1/settings/combine_text_under_n_chars',
    ]);
  });

  it('contextual_chunking_strategy is v1 or none', () => {
    expect(valid(chunk('chunk_by_page', { contextual_chunking_strategy: 'v1' })).workflow_nodes![1]!.settings.contextual_chunking_strategy).toBe('v1');
    valid(chunk('chunk_by_page', { contextual_chunking_strategy: null }));
    expect(only(problemsOf(chunk('chunk_by_page', { contextual_chunking_strategy: 'v2' })), 'schema.invalid_value').message).toBe(
      'contextual_chunking_strategy must be "v1" or null; got "v2"',
    );
  });
});

describe('validateWorkflow: models', () => {
  const retiredBody = (model: string) => customBody([nodes.auto({ model })]);

  it('rejects the retired models from 2025-10-22 (UTC), naming model and date', () => {
    const p = only(problemsOf(retiredBody('claude-3-5-sonnet-20241022'), { now: new Date('2025-10-22T00:00:00Z') }), 'model.retired');
    expect(p.message).toContain('"claude-3-5-sonnet-20241022"');
    expect(p.message).toContain('2025-10-22');
    valid(retiredBody('claude-3-5-sonnet-20241022'), { now: new Date('2025-10-21T23:59:59Z') });
  });

  it('checks prompter models too, and uses the current date by default', () => {
    const body = customBody([
      nodes.hiRes(),
      nodes.prompter('bedrock_image_description', { provider_type: 'bedrock', model: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0' }),
    ]);
    expect(only(problemsOf(body), 'model.retired').path).toBe('/workflow_nodes/1/settings/model');
    valid(body, { now: new Date('2025-06-01T00:00:00Z') });
  });

  it('rejects a model clearly made for another provider, accepts unknown ids', () => {
    expect(only(problemsOf(customBody([nodes.auto({ provider: 'vertexai', model: 'gpt-4o' })])), 'model.provider_mismatch').message).toContain(
      'belongs to provider openai',
    );
    expect(
      only(
        problemsOf(
          customBody([nodes.hiRes(), nodes.prompter('anthropic_ocr', { provider_type: 'anthropic', model: 'us.anthropic.claude-sonnet-4-20250514-v1:0' })]),
        ),
        'model.provider_mismatch',
      ).path,
    ).toBe('/workflow_nodes/1/settings/model');
    valid(customBody([nodes.auto({ provider: 'openai', model: 'my-fine-tune-2030' })]));
    valid(customBody([nodes.auto({ provider: 'vertexai', model: 'claude-sonnet-4@20250514' })]));
    valid(customBody([nodes.auto({ provider: 'bedrock', model: 'us.meta.llama3-2-90b-instruct-v1:0' })]));
    valid(customBody([nodes.auto({ provider: 'auto', model: 'gpt-4o' })]));
  });

  it('gives each partitioner provider its own default model', () => {
    const models = ['anthropic', 'provider_b', 'openai', 'vertexai', 'auto'].map(
      (provider) => valid(customBody([nodes.auto({ provider })])).workflow_nodes![0]!.settings.model,
    );
    expect(models).toEqual([
      'claude-sonnet-4-20250514',
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
      'gpt-4o',
      'gemini-2.0-flash-001',
      'claude-sonnet-4-20250514',
    ]);
  });
});

describe('validateWorkflow: plugin nodes (registry)', () => {
  const registry = testRegistry();

  it('validates a plugin subtype with its own zod schema, applying defaults', () => {
    const v = valid(customBody([nodes.auto(), nodes.prompter('uppercase', { times: 2 }), nodes.chunk()]), { registry });
    expect(v.workflow_nodes![1]).toEqual({ name: 'Enrich uppercase', type: 'prompter', subtype: 'uppercase', settings: { shout: false, times: 2 } });
  });

  it('validates a plugin subtype with a JSON Schema, with pointers into settings', () => {
    const v = valid(customBody([nodes.auto(), nodes.chunk('chunk_by_sentence')]), { registry });
    expect(v.workflow_nodes![1]!.settings).toEqual({ max_sentences: 5 });
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.chunk('chunk_by_sentence', { max_sentences: 0, words: 3 })]), { registry }))).toEqual([
      'settings.invalid @ /workflow_nodes/1/settings/words',
      'settings.invalid @ /workflow_nodes/1/settings/max_sentences',
    ]);
  });

  it('applies ordering rules and rule 5 to plugin nodes', () => {
    expect(codesAt(problemsOf(customBody([nodes.auto(), nodes.chunk('chunk_by_sentence'), nodes.prompter('uppercase')]), { registry }))).toEqual([
      'order.chunker_before_enrichment @ /workflow_nodes/2',
    ]);
    expect(
      codesAt(
        problemsOf(customBody([nodes.auto(), nodes.chunk('chunk_by_sentence', { max_characters: 450 }), nodes.embed('tiny_local', 'tiny-bert')]), { registry }),
      ),
    ).toEqual(['order.max_characters_exceeds_model @ /workflow_nodes/1/settings/max_characters']);
  });

  it('rejects plugin subtypes without a registry, and lists registered subtypes with one', () => {
    expect(only(problemsOf(customBody([nodes.auto(), nodes.prompter('uppercase')])), 'node.unknown_subtype').path).toBe('/workflow_nodes/1/subtype');
    const p = only(problemsOf(customBody([nodes.auto(), nodes.chunk('chunk_by_paragraph')]), { registry }), 'node.unknown_subtype');
    expect(p.message).toBe(
      'unknown chunk subtype "chunk_by_paragraph"; allowed: chunk_by_character, chunk_by_page, chunk_by_sentence, chunk_by_similarity, chunk_by_title',
    );
  });

  it('accepts a Registry as the view (types line up)', () => {
    expect(validateWorkflow(customBody(), { registry }).valid).toBe(true);
  });
});

describe('validateWorkflow: every problem at once', () => {
  it('reports top-level, node, settings and rule problems together with exact pointers', () => {
    const body = {
      name: '',
      workflow_type: 'basic',
      schedule: 'every 3 hours',
      colour: 'red',
      workflow_nodes: [
        nodes.chunk('chunk_by_title', { max_characters: 2000, overlap: 2500 }),
        { name: 'P', type: 'partition', subtype: 'vlm', settings: { is_dynamic: true, model: 'claude-3-5-sonnet-20241022' } },
        nodes.prompter('openai_ner', { provider_type: 'anthropic', model: 'gpt-4o' }),
        nodes.embed('bedrock', 'cohere.embed-english-v3'),
        { name: 'X', type: 'prompter', subtype: 'vertexai_table2html', settings: {} },
      ],
    };
    const r = validateWorkflow(body, { registry: testRegistry(), now: new Date('2026-01-01T00:00:00Z') });
    expect(r.valid).toBe(false);
    expect(codesAt(r.problems)).toEqual([
      'schema.too_short @ /name',
      'workflow_type.non_operational @ /workflow_type',
      'schedule.unknown_phrase @ /schedule',
      'schema.unknown_key @ /colour',
      'chunking.overlap_too_large @ /workflow_nodes/0/settings/overlap',
      'partition.auto_requires_allow_fast @ /workflow_nodes/1/settings/allow_fast',
      'model.provider_mismatch @ /workflow_nodes/2/settings/model',
      'prompter.provider_not_allowed @ /workflow_nodes/4/subtype',
      'local.schedule_not_allowed @ /schedule',
      'order.partition_not_first @ /workflow_nodes/1',
      'order.chunker_before_enrichment @ /workflow_nodes/2',
      'order.chunker_before_enrichment @ /workflow_nodes/4',
      'order.embed_not_last @ /workflow_nodes/3',
      'model.retired @ /workflow_nodes/1/settings/model',
      'prompter.provider_type_mismatch @ /workflow_nodes/2/settings/provider_type',
      'order.max_characters_exceeds_model @ /workflow_nodes/0/settings/max_characters',
    ]);
  });
});

describe('validateWorkflow: update mode', () => {
  it('accepts an empty or partial update and applies no top-level defaults', () => {
    expect(validateWorkflow({}, { mode: 'update' })).toEqual({ valid: true, value: {}, problems: [] });
    const r = validateWorkflow({ reprocess_all: false, schedule: 'Daily' }, { mode: 'update' });
    expect(r).toEqual({ valid: true, value: { reprocess_all: false, schedule: 'daily' }, problems: [] });
  });

  it('leaves rules that need the stored workflow to the service', () => {
    expect(validateWorkflow({ workflow_type: 'template' }, { mode: 'update' }).valid).toBe(true);
    expect(validateWorkflow({ schedule: 'weekly', source_id: null }, { mode: 'update' }).valid).toBe(true);
  });

  it('checks the fields it is given, nodes in full', () => {
    expect(codesAt(problemsOf({ workflow_type: 'platinum', name: 3 }, { mode: 'update' }))).toEqual([
      'schema.invalid_type @ /name',
      'workflow_type.non_operational @ /workflow_type',
    ]);
    expect(codesAt(problemsOf({ workflow_nodes: [] }, { mode: 'update' }))).toEqual(['custom.workflow_nodes_required @ /workflow_nodes']);
    expect(codesAt(problemsOf({ workflow_nodes: [nodes.chunk()] }, { mode: 'update' }))).toEqual(['order.partition_required @ /workflow_nodes']);
    expect(codesAt(problemsOf({ workflow_type: 'template', workflow_nodes: [nodes.auto()] }, { mode: 'update' }))).toEqual([
      'template.workflow_nodes_not_allowed @ /workflow_nodes',
    ]);
    expect(codesAt(problemsOf({ workflow_type: 'custom', template_id: 't' }, { mode: 'update' }))).toEqual(['custom.template_id_not_allowed @ /template_id']);
    const v = validateWorkflow({ workflow_nodes: [nodes.auto(), nodes.chunk()] }, { mode: 'update' });
    expect(v.valid && v.value.workflow_nodes?.[1]?.settings.multipage_sections).toBe(false);
  });
});

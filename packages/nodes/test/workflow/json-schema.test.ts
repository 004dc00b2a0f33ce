import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { workflowJsonSchema } from '@quarry/core';
import { builtinRegistry, customBody, nodes } from './helpers.js';

const compile = (mode: 'create' | 'update') => new Ajv({ strict: true, allErrors: true }).compile(workflowJsonSchema(builtinRegistry(), mode));

describe('workflowJsonSchema', () => {
  it('compiles with ajv in strict mode (create and update)', () => {
    expect(typeof compile('create')).toBe('function');
    expect(typeof compile('update')).toBe('function');
    expect(workflowJsonSchema(builtinRegistry()).$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('accepts a full valid body and describes the input (defaults optional, aliases allowed)', () => {
    const validate = compile('create');
    const body = customBody(
      [
        nodes.auto({ provider: 'provider_a' }),
        nodes.imageDescription(),
        nodes.prompter('provider_c_ner', { provider_type: 'openai', model: 'gpt-4o', prompt_interface_overrides: { prompt: { user: null } } }),
        nodes.prompter('twopass_table2html'),
        nodes.chunk('chunk_by_similarity', { similarity_threshold: 0.5, max_characters: 1000 }),
        nodes.embed('voyageai', 'voyage-3'),
      ],
      { schedule: 'every 4 hours', reprocess_all: false },
    );
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ name: 't', workflow_type: 'template', template_id: 'x', source_id: 's' })).toBe(true);
  });

  it.each([
    ['unknown subtype', customBody([nodes.auto(), nodes.chunk('chunk_by_paragraph')])],
    ['unknown setting', customBody([nodes.auto({ temperature: 1 })])],
    ['missing is_dynamic', customBody([{ name: 'P', type: 'partition', subtype: 'vlm', settings: {} }])],
    ['missing strategy', customBody([{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: {} }])],
    ['threshold out of range', customBody([nodes.auto(), nodes.chunk('chunk_by_similarity', { similarity_threshold: 1 })])],
    ['max_characters 0', customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: 0 })])],
    ['bad element type', customBody([nodes.hiRes({ exclude_elements: ['Sidebar'] })])],
    ['bad workflow_type', customBody(undefined, { workflow_type: 'advanced' })],
    ['bad schedule', customBody(undefined, { schedule: 'hourly' })],
    ['provider not allowed for the task', customBody([nodes.auto(), nodes.prompter('vertexai_ner', { provider_type: 'vertexai', model: 'm' })])],
    ['unknown top-level field', customBody(undefined, { colour: 'red' })],
  ])('rejects a body with %s', (_, body) => {
    expect(compile('create')(body)).toBe(false);
  });

  it('update schema: every field optional', () => {
    const validate = compile('update');
    expect(validate({})).toBe(true);
    expect(validate({ schedule: 'daily' })).toBe(true);
    expect(validate({ reprocess_all: 'yes' })).toBe(false);
    expect(compile('create')({})).toBe(false);
  });

  it('returns a fresh copy each time', () => {
    const a = workflowJsonSchema(builtinRegistry());
    (a as { title?: string }).title = 'changed';
    expect(workflowJsonSchema(builtinRegistry()).title).toBe('Workflow create body');
  });
});

import { describe, expect, it } from 'vitest';
import { SPEC_SUBTYPES, normalizeSubtype, parsePrompterSubtype, specNodeKind, specSettingsSchema, chunkByTitleSettings } from '../../src/workflow/index.js';

describe('node kinds', () => {
  it('lists the SPEC subtypes per type', () => {
    expect(SPEC_SUBTYPES.partition).toEqual(['unstructured_api', 'vlm']);
    expect(SPEC_SUBTYPES.chunk).toEqual(['chunk_by_character', 'chunk_by_page', 'chunk_by_similarity', 'chunk_by_title']);
    expect(SPEC_SUBTYPES.prompter).toHaveLength(16);
  });

  it('splits <provider>_<task> subtypes', () => {
    expect(parsePrompterSubtype('provider_b_table_description')).toEqual({ task: 'table_description', providerWord: 'provider_b', provider: 'bedrock' });
    expect(parsePrompterSubtype('twopass_table2html')).toEqual({ task: 'twopass_table2html' });
    expect(parsePrompterSubtype('acme_ner')).toEqual({ task: 'ner', providerWord: 'acme' });
    expect(parsePrompterSubtype('ner')).toBeUndefined();
    expect(parsePrompterSubtype('uppercase')).toBeUndefined();
  });

  it('normalizes only prompter aliases', () => {
    expect(normalizeSubtype('prompter', 'provider_a_ocr')).toBe('anthropic_ocr');
    expect(normalizeSubtype('prompter', 'acme_ocr')).toBe('acme_ocr');
    expect(normalizeSubtype('embed', 'provider_b')).toBe('provider_b');
  });

  it('exposes the settings schema of each SPEC kind for node implementations', () => {
    expect(specSettingsSchema('chunk', 'chunk_by_title')).toBe(chunkByTitleSettings);
    expect(specNodeKind('prompter', 'provider_c_ner')?.subtype).toBe('openai_ner');
    expect(specSettingsSchema('chunk', 'chunk_by_sentence')).toBeUndefined();
  });
});

describe('parsed settings re-parse to themselves (the plan parses them again with the node schema)', () => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['partition', 'vlm', { is_dynamic: true, allow_fast: true, provider: 'provider_b' }],
    ['partition', 'vlm', { is_dynamic: false, output_format: 'application/json' }],
    ['partition', 'unstructured_api', { strategy: 'fast', exclude_elements: ['Header'] }],
    ['prompter', 'provider_a_ner', { provider_type: 'provider_a', model: 'claude-sonnet-4-20250514', prompt_interface_overrides: null }],
    ['prompter', 'twopass_table2html', {}],
    ['chunk', 'chunk_by_title', { max_characters: 800, combine_text_under_n_chars: 200 }],
    ['chunk', 'chunk_by_similarity', { similarity_threshold: 0.7, contextual_chunking_strategy: 'v1' }],
    ['embed', 'togetherai', { model_name: 'togethercomputer/m2-bert-80M-32k-retrieval' }],
  ];
  it.each(cases)('%s/%s', (type, subtype, settings) => {
    const schema = specSettingsSchema(type, subtype)!;
    const once = schema.parse(settings);
    expect(schema.parse(once)).toEqual(once);
  });
});

import { parseSettings } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { chunkByTitleNode } from '../../src/index.js';
import { PROMPTER_SUBTYPES, parsePrompterSubtype } from '../../src/prompter/prompter-tasks.js';
import { builtinRegistry } from './helpers.js';

describe('node kinds', () => {
  const registry = builtinRegistry();

  it('registers the built-in subtypes per type', () => {
    expect(registry.nodeSubtypes('partition')).toEqual(['unstructured_api', 'vlm']);
    expect(registry.nodeSubtypes('chunk')).toEqual(['chunk_by_character', 'chunk_by_page', 'chunk_by_similarity', 'chunk_by_title']);
    expect(registry.nodeSubtypes('prompter')).toEqual(PROMPTER_SUBTYPES);
    expect(PROMPTER_SUBTYPES).toHaveLength(16);
  });

  it('splits <provider>_<task> subtypes', () => {
    expect(parsePrompterSubtype('provider_b_table_description')).toEqual({ task: 'table_description', providerWord: 'provider_b', provider: 'bedrock' });
    expect(parsePrompterSubtype('twopass_table2html')).toEqual({ task: 'twopass_table2html' });
    expect(parsePrompterSubtype('acme_ner')).toEqual({ task: 'ner', providerWord: 'acme' });
    expect(parsePrompterSubtype('ner')).toBeUndefined();
    expect(parsePrompterSubtype('uppercase')).toBeUndefined();
  });

  it('finds prompters by their provider aliases only', () => {
    expect(registry.findNode('prompter', 'provider_a_ocr')?.subtype).toBe('anthropic_ocr');
    expect(registry.findNode('prompter', 'provider_c_ner')?.subtype).toBe('openai_ner');
    expect(registry.findNode('prompter', 'acme_ocr')).toBeUndefined();
    expect(registry.findNode('embed', 'provider_b')).toBeUndefined();
  });

  it('each node holds its settings schema', () => {
    expect(registry.findNode('chunk', 'chunk_by_title')).toBe(chunkByTitleNode);
    expect(registry.findNode('chunk', 'chunk_by_sentence')).toBeUndefined();
  });
});

describe('parsed settings re-parse to themselves (the plan parses them again with the node schema)', () => {
  const registry = builtinRegistry();
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
    const schema = registry.findNode(type, subtype)!.settings;
    const once = parseSettings(schema, settings);
    expect(once.ok).toBe(true);
    const value = once.ok ? once.value : undefined;
    expect(parseSettings(schema, value)).toEqual({ ok: true, value });
  });
});

import { describe, expect, it } from 'vitest';
import {
  EXCLUDE_ELEMENT_TYPES,
  EXTRACT_IMAGE_BLOCK_TYPES,
  partitionSettingsDefaults,
  partitionUnstructuredApiSettings,
} from '../../src/partition/unstructured-api.node.js';
import { partitionVlmSettings } from '../../src/partition/vlm.node.js';

describe('partitionVlmSettings', () => {
  it('applies the SPEC defaults for VLM', () => {
    expect(partitionVlmSettings().parse({ is_dynamic: false })).toEqual({
      provider: 'anthropic',
      provider_api_key: null,
      model: 'claude-sonnet-4-20250514',
      output_format: 'text/html',
      format_html: true,
      unique_element_ids: true,
      is_dynamic: false,
      allow_fast: true,
    });
  });

  it('normalizes provider aliases and keeps explicit values', () => {
    expect(
      partitionVlmSettings().parse({ is_dynamic: true, allow_fast: true, provider: 'provider_d', provider_api_key: 'k', unique_element_ids: false }),
    ).toMatchObject({
      provider: 'vertexai',
      model: 'gemini-2.0-flash-001',
      provider_api_key: 'k',
      unique_element_ids: false,
    });
  });

  it('rejects unknown keys with a message naming them and the allowed ones', () => {
    const r = partitionVlmSettings().safeParse({ is_dynamic: false, strategy: 'hi_res' });
    expect(r.error?.issues[0]?.message).toBe(
      'unknown setting "strategy" for partition/vlm; allowed: provider, provider_api_key, model, output_format, format_html, unique_element_ids, is_dynamic, allow_fast',
    );
  });

  it('requires allow_fast true for Auto', () => {
    const r = partitionVlmSettings().safeParse({ is_dynamic: true });
    expect(r.error?.issues.map((i) => i.path)).toEqual([['allow_fast']]);
    expect(partitionVlmSettings().safeParse({ is_dynamic: true, allow_fast: true }).success).toBe(true);
  });

  it.each(['google', 'Anthropic', 'provider_e'])('rejects provider %s', (provider) => {
    expect(partitionVlmSettings().safeParse({ is_dynamic: false, provider }).success).toBe(false);
  });
});

describe('partitionUnstructuredApiSettings', () => {
  it('accepts every allowed element type and rejects others', () => {
    expect(
      partitionUnstructuredApiSettings().safeParse({
        strategy: 'fast',
        exclude_elements: [...EXCLUDE_ELEMENT_TYPES],
        extract_image_block_types: [...EXTRACT_IMAGE_BLOCK_TYPES],
      }).success,
    ).toBe(true);
    expect(EXCLUDE_ELEMENT_TYPES).toHaveLength(13);
    expect(EXTRACT_IMAGE_BLOCK_TYPES).toHaveLength(23);
    expect(partitionUnstructuredApiSettings().safeParse({ strategy: 'fast', exclude_elements: ['CompositeElement'] }).success).toBe(false);
  });

  it('keeps "default none" settings absent and fills the others', () => {
    const v = partitionUnstructuredApiSettings().parse({ strategy: 'fast', ocr_languages: ['deu', 'eng'], encoding: 'latin-1' });
    expect(v).not.toHaveProperty('exclude_elements');
    expect(v.ocr_languages).toEqual(['deu', 'eng']);
    expect(v.encoding).toBe('latin-1');
    const a = partitionUnstructuredApiSettings().parse({ strategy: 'hi_res' });
    const b = partitionUnstructuredApiSettings().parse({ strategy: 'hi_res' });
    a.ocr_languages.push('fra');
    expect(b.ocr_languages).toEqual(['eng']);
  });

  it('requires strategy', () => {
    expect(partitionUnstructuredApiSettings().safeParse({}).error?.issues[0]?.path).toEqual(['strategy']);
  });

  // The partition() helper uses these defaults for a call that sets nothing, without building the schema.
  it('has the defaults the schema fills in, a fresh copy each time', () => {
    for (const strategy of ['fast', 'hi_res'] as const) {
      expect(partitionSettingsDefaults(strategy)).toEqual(partitionUnstructuredApiSettings().parse({ strategy }));
    }
    partitionSettingsDefaults('fast').ocr_languages.push('fra');
    expect(partitionSettingsDefaults('fast').ocr_languages).toEqual(['eng']);
  });
});

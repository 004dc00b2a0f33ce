import { describe, expect, it } from 'vitest';
import { modelProviderMismatch, normalizeProvider } from '../../src/index.js';
import { PROMPTER_MODELS, RETIRED_MODELS, VLM_MODELS, modelProvider, retiredModel } from '../../src/providers/models.js';

describe('providers', () => {
  it('maps provider_a..provider_d to the real names', () => {
    expect(['provider_a', 'provider_b', 'provider_c', 'provider_d', 'openai', 'auto', 3].map(normalizeProvider)).toEqual([
      'anthropic',
      'bedrock',
      'openai',
      'vertexai',
      'openai',
      undefined,
      undefined,
    ]);
  });

  it('attributes every d5 model id to its own provider (or to none)', () => {
    for (const list of [VLM_MODELS, PROMPTER_MODELS]) {
      for (const [provider, models] of Object.entries(list)) {
        for (const m of models) expect([provider, undefined]).toContain(modelProvider(m));
      }
    }
    for (const r of RETIRED_MODELS) expect(modelProvider(r.model)).toBe(r.provider);
  });

  it.each([
    ['claude-sonnet-4-5-20250929', 'anthropic'],
    ['claude-sonnet-4@20250514', 'vertexai'],
    ['anthropic.claude-3-haiku-20240307-v1:0', 'bedrock'],
    ['eu.amazon.nova-pro-v1:0', 'bedrock'],
    ['openai.gpt-oss-120b-1:0', 'bedrock'],
    ['gpt-4.1-mini', 'openai'],
    ['o3', 'openai'],
    ['o4-mini', 'openai'],
    ['gemini-2.5-pro', 'vertexai'],
    ['llama-3-70b', undefined],
    ['omni-model', undefined],
  ])('modelProvider(%s) = %s', (model, provider) => {
    expect(modelProvider(model)).toBe(provider);
  });

  it('only reports clear mismatches', () => {
    expect(modelProviderMismatch('openai', 'gpt-5')).toBeUndefined();
    expect(modelProviderMismatch('openai', 'brand-new-model')).toBeUndefined();
    expect(modelProviderMismatch('bedrock', 'claude-sonnet-4-20250514')).toContain('belongs to provider anthropic');
  });

  it('retires the two models on 2025-10-22 UTC', () => {
    expect(retiredModel('claude-3-5-sonnet-20241022', new Date('2025-10-21T23:59:59.999Z'))).toBeUndefined();
    expect(retiredModel('claude-3-5-sonnet-20241022', new Date('2025-10-22T00:00:00Z'))?.replacement).toBe('claude-sonnet-4-20250514');
    expect(retiredModel('us.anthropic.claude-3-5-sonnet-20241022-v2:0', new Date('2030-01-01'))?.provider).toBe('bedrock');
    expect(retiredModel('claude-sonnet-4-20250514', new Date('2030-01-01'))).toBeUndefined();
  });
});

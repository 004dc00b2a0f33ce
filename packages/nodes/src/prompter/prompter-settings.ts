import { addCodedIssue, asRecord, lazySchema, strictSettings, zod, type IssueSink } from '@quarry/core';
import type { z } from 'zod';
import { PROVIDER_SPELLINGS, modelProviderMismatch, normalizeProvider, type Provider } from '../providers/models.js';

/** Settings every `<provider>_<task>` prompter takes: `provider_type` and `model` (built on first call). */
export const prompterShape = lazySchema(() => {
  const providerType = zod()
    .enum(PROVIDER_SPELLINGS, {
      error: (iss) =>
        iss.input === undefined
          ? 'provider_type is required: the provider word of the subtype (anthropic, bedrock, openai, vertexai or provider_a..provider_d)'
          : `provider_type must be one of "anthropic", "bedrock", "openai", "vertexai" (or provider_a..provider_d); got ${JSON.stringify(iss.input)}`,
    })
    .transform((v): Provider => normalizeProvider(v) as Provider)
    .describe('the provider word of the subtype (aliases provider_a..provider_d accepted)');

  const model = zod()
    .string({
      error: (iss) =>
        iss.input === undefined ? 'model is required: a provider-specific model id' : `model must be a string; got ${JSON.stringify(iss.input)}`,
    })
    .min(1)
    .describe('provider-specific model id');
  return { provider_type: providerType, model };
});

/** `model.provider_mismatch` when the model clearly belongs to another provider than `provider_type`. */
export function checkPrompterModel(raw: unknown, ctx: IssueSink): void {
  const v = asRecord(raw);
  const provider = normalizeProvider(v.provider_type);
  if (provider && typeof v.model === 'string') {
    const mismatch = modelProviderMismatch(provider, v.model);
    if (mismatch) addCodedIssue(ctx, 'model.provider_mismatch', ['model'], mismatch);
  }
}

/**
 * Settings of the image description, table description, table-to-HTML and OCR prompters.
 * Workflow validation also checks `provider_type` against the subtype.
 */
export const prompterSettings = lazySchema(() => strictSettings('prompter', prompterShape()).superRefine(checkPrompterModel, { when: () => true }));
/** Parsed prompter settings (provider_type normalized to the real name). */
export type PrompterSettings = z.output<ReturnType<typeof prompterSettings>>;

import { z } from 'zod';
import { PROVIDER_SPELLINGS, modelProviderMismatch, normalizeProvider, type Provider } from './providers.js';
import { addCodedIssue, asRecord, strictSettings, type IssueSink } from './schema-helpers.js';

const providerType = z
  .enum(PROVIDER_SPELLINGS, {
    error: (iss) =>
      iss.input === undefined
        ? 'provider_type is required: the provider word of the subtype (anthropic, bedrock, openai, vertexai or provider_a..provider_d)'
        : `provider_type must be one of "anthropic", "bedrock", "openai", "vertexai" (or provider_a..provider_d); got ${JSON.stringify(iss.input)}`,
  })
  .transform((v): Provider => normalizeProvider(v) as Provider)
  .describe('the provider word of the subtype (aliases provider_a..provider_d accepted)');

const model = z.string({ error: (iss) => (iss.input === undefined ? 'model is required: a provider-specific model id' : `model must be a string; got ${JSON.stringify(iss.input)}`) }).min(1).describe('provider-specific model id');

const prompterShape = { provider_type: providerType, model };

/** Marker and placeholder a NER prompt override must keep, in this order. */
export const NER_PROMPT_MARKERS = ['[START OF TEXT]', '{{text}}', '[END OF TEXT]'] as const;
/** JSON keys a NER prompt override must ask for (`items` of `{entity, type}`, `relationships` of `{from, relationship, to}`). */
export const NER_PROMPT_KEYS = ['items', 'entity', 'type', 'relationships', 'from', 'relationship', 'to'] as const;

const nerShape = {
  ...prompterShape,
  prompt_interface_overrides: z
    .strictObject({
      prompt: z
        .strictObject({
          user: z.string().nullish().describe('the whole user prompt; default none (the built-in prompt)'),
        })
        .nullish(),
    })
    .nullish(),
};

function checkModel(raw: unknown, ctx: IssueSink): void {
  const v = asRecord(raw);
  const provider = normalizeProvider(v.provider_type);
  if (provider && typeof v.model === 'string') {
    const mismatch = modelProviderMismatch(provider, v.model);
    if (mismatch) addCodedIssue(ctx, 'model.provider_mismatch', ['model'], mismatch);
  }
}

/**
 * What is wrong with a NER user prompt override: the `{{text}}` placeholder must sit between
 * `[START OF TEXT]` and `[END OF TEXT]`, and the prompt must ask for the JSON keys of the entity
 * output. Keys are matched as whole words, so prose that names them also passes.
 */
export function nerPromptIssues(prompt: string): Array<{ code: 'ner.prompt_text_placeholder' | 'ner.prompt_json_keys'; message: string }> {
  const issues: Array<{ code: 'ner.prompt_text_placeholder' | 'ner.prompt_json_keys'; message: string }> = [];
  const [startMarker, placeholder, endMarker] = NER_PROMPT_MARKERS;
  const start = prompt.indexOf(startMarker);
  const text = start < 0 ? -1 : prompt.indexOf(placeholder, start + startMarker.length);
  const end = text < 0 ? -1 : prompt.indexOf(endMarker, text + placeholder.length);
  if (end < 0) {
    const missing = NER_PROMPT_MARKERS.filter((m) => !prompt.includes(m));
    issues.push({
      code: 'ner.prompt_text_placeholder',
      message: missing.length
        ? `the NER prompt must keep ${placeholder} between ${startMarker} and ${endMarker}; missing: ${missing.join(', ')}`
        : `the NER prompt must keep ${placeholder} between ${startMarker} and ${endMarker}, in that order`,
    });
  }
  const absent = NER_PROMPT_KEYS.filter((k) => !new RegExp(`\\b${k}\\b`).test(prompt));
  if (absent.length) {
    issues.push({
      code: 'ner.prompt_json_keys',
      message: `the NER prompt must ask for a JSON response with "items" (objects with "entity", "type") and "relationships" (objects with "from", "relationship", "to"); not mentioned: ${absent.join(', ')}`,
    });
  }
  return issues;
}

/**
 * Settings of the prompter (enrichment) subtypes `<provider>_<task>` other than NER and
 * `twopass_table2html`. Workflow validation also checks `provider_type` against the subtype.
 */
export const prompterSettings = strictSettings('prompter', prompterShape).superRefine(checkModel, { when: () => true });
/** Parsed prompter settings (provider_type normalized to the real name). */
export type PrompterSettings = z.output<typeof prompterSettings>;

/** Settings of `anthropic_ner` / `openai_ner`: prompter settings plus `prompt_interface_overrides.prompt.user`. */
export const nerSettings = strictSettings('prompter/ner', nerShape).superRefine(
  (raw, ctx) => {
    checkModel(raw, ctx);
    const user = asRecord(asRecord(asRecord(raw).prompt_interface_overrides).prompt).user;
    if (typeof user !== 'string') return;
    for (const i of nerPromptIssues(user)) addCodedIssue(ctx, i.code, ['prompt_interface_overrides', 'prompt', 'user'], i.message);
  },
  { when: () => true },
);
/** Parsed NER prompter settings. */
export type NerSettings = z.output<typeof nerSettings>;

/** Settings of `twopass_table2html`: none; `provider_type` and `model` must not be given. */
export const twopassTable2htmlSettings = z.strictObject(
  {},
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `twopass_table2html takes no settings (no provider_type or model: the agentic node chooses its own); got ${iss.keys.join(', ')}`
        : iss.code === 'invalid_type'
          ? 'twopass_table2html settings must be an object'
          : undefined,
  },
);
/** Parsed `twopass_table2html` settings (always empty). */
export type TwopassTable2htmlSettings = z.output<typeof twopassTable2htmlSettings>;

/** Setting names of the prompter settings kinds. */
export const PROMPTER_SETTING_KEYS = {
  prompter: Object.keys(prompterShape),
  ner: Object.keys(nerShape),
  twopass_table2html: [] as string[],
} as const;

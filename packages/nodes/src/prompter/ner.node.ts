import { addCodedIssue, asRecord, lazySchema, strictSettings, zod } from '@quarry/core';
import type { z, ZodType } from 'zod';
import { taskNodes } from './prompter-node.js';
import { checkPrompterModel, prompterShape } from './prompter-settings.js';

/** Marker and placeholder a NER prompt override must keep, in this order. */
export const NER_PROMPT_MARKERS = ['[START OF TEXT]', '{{text}}', '[END OF TEXT]'] as const;
/** JSON keys a NER prompt override must ask for (`items` of `{entity, type}`, `relationships` of `{from, relationship, to}`). */
export const NER_PROMPT_KEYS = ['items', 'entity', 'type', 'relationships', 'from', 'relationship', 'to'] as const;

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

/** Settings of `anthropic_ner` / `openai_ner`: `provider_type`, `model` and `prompt_interface_overrides.prompt.user`. */
export const nerSettings = lazySchema(() => {
  const z = zod();
  return strictSettings('prompter/ner', {
    ...prompterShape(),
    prompt_interface_overrides: z
      .strictObject({
        prompt: z
          .strictObject({
            user: z.string().nullish().describe('the whole user prompt; default none (the built-in prompt)'),
          })
          .nullish(),
      })
      .nullish(),
  }).superRefine(
    (raw, ctx) => {
      checkPrompterModel(raw, ctx);
      const user = asRecord(asRecord(asRecord(raw).prompt_interface_overrides).prompt).user;
      if (typeof user !== 'string') return;
      for (const i of nerPromptIssues(user)) addCodedIssue(ctx, i.code, ['prompt_interface_overrides', 'prompt', 'user'], i.message);
    },
    { when: () => true },
  );
});
/** Parsed NER prompter settings. */
export type NerSettings = z.output<ReturnType<typeof nerSettings>>;

/** NER nodes: anthropic, openai (`<provider>_ner`). */
export const nerNodes = taskNodes<NerSettings>(
  'ner',
  { description: 'writes metadata.entities (entities and relationships) of each element with text', load: async () => (await import('./ner.js')).nerTask },
  nerSettings as unknown as () => ZodType<NerSettings>,
);

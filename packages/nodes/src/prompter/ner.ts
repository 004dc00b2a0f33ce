import type { EntityItem, EntityRelationship } from '@quarry/core';
import type { EnrichmentTask } from './enrichment-task.js';
import { NER_DEFAULT_PROMPT, renderNerPrompt } from './ner-prompt.js';
import { parseJsonObject } from './parse-json.js';

const SYSTEM = 'You are a precise named entity recognition and relation extraction system. You answer in JSON.';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * The `items` and `relationships` of a NER answer. Entries missing a field (or with non-string
 * fields) are dropped rather than failing the document; a missing list counts as empty.
 */
export function parseNerAnswer(answer: string, what: string): { items: EntityItem[]; relationships: EntityRelationship[] } {
  const json = parseJsonObject(answer, what);
  const items: EntityItem[] = [];
  for (const v of Array.isArray(json.items) ? json.items : []) {
    const o = (v ?? {}) as Record<string, unknown>;
    const entity = str(o.entity);
    const type = str(o.type);
    if (entity && type) items.push({ entity, type });
  }
  const relationships: EntityRelationship[] = [];
  for (const v of Array.isArray(json.relationships) ? json.relationships : []) {
    const o = (v ?? {}) as Record<string, unknown>;
    const from = str(o.from);
    const relationship = str(o.relationship);
    const to = str(o.to);
    if (from && relationship && to) relationships.push({ from, relationship, to });
  }
  return { items, relationships };
}

/**
 * Named entity recognition (the Unstructured workflow API's `ner`): every element with text gets `metadata.entities`
 * (`items` of `{entity, type}`, `relationships` of `{from, relationship, to}`). The prompt is the
 * built-in one ({@link NER_DEFAULT_PROMPT}) or `prompt_interface_overrides.prompt.user`, with
 * `{{text}}` replaced by the element text; JSON is asked for natively where the provider can.
 */
/** What the NER task reads of its node's settings: the optional user prompt override. */
export interface NerPromptSettings {
  prompt_interface_overrides?: { prompt?: { user?: string | null | undefined } | null | undefined } | null | undefined;
}

export const nerTask: EnrichmentTask<NerPromptSettings> = {
  task: 'ner',
  imagesOrTables: false,
  selector: () => (el) => el.text.trim().length > 0,
  enrich: async (el, { llm, settings, signal }) => {
    const template = settings.prompt_interface_overrides?.prompt?.user ?? NER_DEFAULT_PROMPT;
    const answer = await llm.chat({
      system: SYSTEM,
      messages: [{ role: 'user', content: renderNerPrompt(template, el.text) }],
      maxTokens: 2048,
      temperature: 0,
      json: true,
      signal,
    });
    return { metadata: { entities: parseNerAnswer(answer, `${llm.provider} ner`) } };
  },
};

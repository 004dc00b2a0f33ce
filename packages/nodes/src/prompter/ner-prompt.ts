/** Built-in entity types of the Unstructured workflow API's NER node. */
export const NER_ENTITY_TYPES = [
  'PERSON',
  'ORGANIZATION',
  'LOCATION',
  'DATE',
  'TIME',
  'EVENT',
  'MONEY',
  'PERCENT',
  'FACILITY',
  'PRODUCT',
  'ROLE',
  'DOCUMENT',
  'DATASET',
] as const;

/** Built-in relationship types of the Unstructured workflow API's NER node, by entity pair. */
export const NER_RELATIONSHIP_TYPES: ReadonlyArray<{ pair: string; relationships: readonly string[] }> = [
  { pair: 'PERSON-ORGANIZATION', relationships: ['works_for', 'affiliated_with', 'founded'] },
  { pair: 'PERSON-LOCATION', relationships: ['born_in', 'lives_in', 'traveled_to'] },
  { pair: 'ORGANIZATION-LOCATION', relationships: ['based_in', 'has_office_in'] },
  { pair: 'Entity-DATE', relationships: ['occurred_on', 'founded_on', 'died_on', 'published_in'] },
  { pair: 'PERSON-PERSON', relationships: ['married_to', 'parent_of', 'colleague_of'] },
  { pair: 'PRODUCT-ORGANIZATION', relationships: ['developed_by', 'owned_by'] },
  { pair: 'EVENT-LOCATION', relationships: ['held_in', 'occurred_in'] },
  { pair: 'Entity-ROLE', relationships: ['has_title', 'acts_as', 'has_role'] },
  { pair: 'DATASET-PERSON', relationships: ['mentions'] },
  { pair: 'DATASET-DOCUMENT', relationships: ['located_in'] },
  { pair: 'PERSON-DATASET', relationships: ['published'] },
  { pair: 'DOCUMENT-DOCUMENT', relationships: ['referenced_in', 'contains'] },
  { pair: 'DOCUMENT-DATE', relationships: ['dated'] },
  { pair: 'PERSON-DOCUMENT', relationships: ['published'] },
];

/** The text placeholder of NER prompts (the Unstructured workflow API: kept between `[START OF TEXT]` and `[END OF TEXT]`). */
export const NER_TEXT_PLACEHOLDER = '{{text}}';

/**
 * The built-in NER user prompt: the entity types, the relationship types by pair, the JSON shape,
 * and `{{text}}` between the markers. It is also the model for a user override, which the Unstructured workflow API
 * asks to change only the type lists and the instructions just before `[START OF TEXT]`.
 */
export const NER_DEFAULT_PROMPT = [
  'Extract the named entities and the relationships between them from the text below.',
  '',
  `Entity types: ${NER_ENTITY_TYPES.join(', ')}.`,
  '',
  'Relationship types, by pair of entity types (use only these):',
  ...NER_RELATIONSHIP_TYPES.map((r) => `- ${r.pair}: ${r.relationships.join(', ')}`),
  '',
  'Answer with a JSON object with two keys:',
  '- "items": a list of objects {"entity": the entity exactly as written in the text, "type": one of the entity types};',
  '- "relationships": a list of objects {"from": an entity of "items", "relationship": one of the relationship types, "to": an entity of "items"}.',
  'List each entity once. Use empty lists when there is nothing to report.',
  '',
  '[START OF TEXT]',
  NER_TEXT_PLACEHOLDER,
  '[END OF TEXT]',
].join('\n');

/** The prompt with every `{{text}}` replaced by `text` (literally: `$` in the text is not special). */
export function renderNerPrompt(template: string, text: string): string {
  return template.split(NER_TEXT_PLACEHOLDER).join(text);
}

/**
 * Enrichment (`prompter`) nodes: image and table description, table to HTML (one pass or two),
 * named entity recognition and generative OCR, each calling a chat model through the provider
 * layer and recording `metadata.enrichment_origins`.
 */
export { PROMPTER_NODES, IMAGE_DESCRIPTION_NODES, TABLE_DESCRIPTION_NODES, TABLE2HTML_NODES, NER_NODES, OCR_NODES, twopassTable2htmlNode } from './prompter-nodes.js';
export { prompterNode } from './prompter-node.js';
export { runEnrichment, ENRICHMENT_CONCURRENCY } from './run-enrichment.js';
export { applyEnrichment, withOrigin, type EnrichmentCall, type EnrichmentResult, type EnrichmentTask } from './enrichment-task.js';
export { planFacts, type PlanFacts, type PartitionerVariant } from './plan-facts.js';
export { prompterLlm, type PrompterLlm } from './prompter-llm.js';
export { imageDescriptionTask } from './image-description.js';
export { tableDescriptionTask } from './table-description.js';
export { table2htmlTask, TABLE2HTML_INSTRUCTION, TABLE2HTML_SYSTEM } from './table2html.js';
export { twopassTable2htmlTask, TWOPASS_DEFAULT } from './twopass-table2html.js';
export { nerTask, parseNerAnswer } from './ner.js';
export { NER_DEFAULT_PROMPT, NER_ENTITY_TYPES, NER_RELATIONSHIP_TYPES, NER_TEXT_PLACEHOLDER, renderNerPrompt } from './ner-prompt.js';
export { ocrTask } from './ocr.js';
export { ENRICHMENT_RESPONSE_INVALID, parseJsonObject } from './parse-json.js';
export { tableHtmlOf } from './html-answer.js';
export { elementImage } from './element-image.js';
export { mapConcurrent } from './map-concurrent.js';

/**
 * Enrichment (`prompter`) nodes: image and table description, table to HTML (one pass or two),
 * named entity recognition and generative OCR, each calling a chat model through the provider
 * layer and recording `metadata.enrichment_origins`.
 */
export { imageDescriptionNodes } from './image-description.node.js';
export { tableDescriptionNodes } from './table-description.node.js';
export { table2htmlNodes } from './table2html.node.js';
export { twopassTable2htmlNode, twopassTable2htmlSettings, type TwopassTable2htmlSettings } from './twopass-table2html.node.js';
export { NER_PROMPT_KEYS, NER_PROMPT_MARKERS, nerNodes, nerPromptIssues, nerSettings, type NerSettings } from './ner.node.js';
export { ocrNodes } from './ocr.node.js';
export { PROMPTER_SHAPE, checkPrompterModel, prompterSettings, type PrompterSettings } from './prompter-settings.js';
export { IMAGE_TABLE_TASKS, PROMPTER_SUBTYPES, PROMPTER_TASKS, TWOPASS_TABLE2HTML, parsePrompterSubtype, prompterUnknownSubtype, type PrompterSubtype, type PrompterTask } from './prompter-tasks.js';
export { enrichmentProblems, prompterProblems, providerTypeProblems } from './prompter-rules.js';
export { prompterNode, taskNodes, type PrompterRules } from './prompter-node.js';
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

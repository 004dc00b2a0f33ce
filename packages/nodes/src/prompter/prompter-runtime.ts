/**
 * What a prompter node needs once a job creates it (the plan's facts, the model client, the
 * concurrent runner), imported by `create` so that defining the nodes loads none of it.
 */
export { planFacts } from './plan-facts.js';
export { prompterLlm } from './prompter-llm.js';
export { ENRICHMENT_CONCURRENCY, runEnrichment } from './run-enrichment.js';

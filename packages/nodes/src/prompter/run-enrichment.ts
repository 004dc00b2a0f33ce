import type { Element, Logger } from '@quarry/core';
import { applyEnrichment, type EnrichmentCall, type EnrichmentTask } from './enrichment-task.js';
import { mapConcurrent } from './map-concurrent.js';
import type { PlanFacts } from './plan-facts.js';

/** Provider calls one enrichment node keeps in flight per document (the key's rate budget still applies). */
export const ENRICHMENT_CONCURRENCY = 8;

/**
 * Runs `task` over one document's elements: selects the elements it applies to, makes one call
 * per element (at most `concurrency` at once), and returns the elements in their order with the
 * results applied and their origins recorded. Image and table tasks return the elements untouched
 * after a Fast partitioner (the Unstructured workflow API's enrichment condition 4). The first failed call rejects, so the
 * document fails with the provider layer's coded error.
 */
export async function runEnrichment<S>(
  elements: readonly Element[],
  task: EnrichmentTask<S>,
  plan: PlanFacts,
  call: EnrichmentCall<S>,
  options: { concurrency?: number; logger?: Logger } = {},
): Promise<Element[]> {
  if (task.imagesOrTables && plan.partitioner === 'fast') {
    options.logger?.debug('enrichment skipped: nothing is generated after a Fast partitioner', { task: task.task });
    return [...elements];
  }
  const select = task.selector(plan, call.settings);
  const picked: number[] = [];
  elements.forEach((el, i) => {
    if (select(el)) picked.push(i);
  });
  const results = await mapConcurrent(picked, options.concurrency ?? ENRICHMENT_CONCURRENCY, (i) => task.enrich(elements[i]!, call));
  const out = [...elements];
  const origin = { type: task.task, provider: call.llm.provider, model: call.llm.model };
  picked.forEach((i, k) => {
    const r = results[k];
    if (r) out[i] = applyEnrichment(out[i]!, r, origin);
  });
  options.logger?.debug('enrichment done', { task: task.task, elements: elements.length, enriched: results.filter(Boolean).length });
  return out;
}

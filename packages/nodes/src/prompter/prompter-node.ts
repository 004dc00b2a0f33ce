import { defineNode, type NodeDefinition } from '@quarry/core';
import type { ZodType } from 'zod';
import type { ProviderName } from '../providers/types.js';
import type { EnrichmentTask } from './enrichment-task.js';
import { planFacts } from './plan-facts.js';
import { prompterLlm } from './prompter-llm.js';
import { ENRICHMENT_CONCURRENCY, runEnrichment } from './run-enrichment.js';

/**
 * Lifts an {@link EnrichmentTask} into a `prompter` node definition. `bind` chooses the provider
 * and model from the parsed settings; the plan facts (partitioner, image block types, other
 * enrichment nodes) are read once per job.
 */
export function prompterNode<S>(
  subtype: string,
  task: EnrichmentTask<S>,
  settings: ZodType<S>,
  bind: (settings: S) => { provider: ProviderName; model: string },
): NodeDefinition<S> {
  return defineNode<S>({
    type: 'prompter',
    subtype,
    description: task.description,
    settings,
    create: (parsed, ctx) => {
      const plan = planFacts(ctx.nodes);
      const { provider, model } = bind(parsed);
      const llm = prompterLlm(provider, model, { services: ctx.services, logger: ctx.logger });
      return {
        process: (flow, pctx) => runEnrichment(flow.elements, task, plan, { llm, settings: parsed, signal: pctx.signal }, { concurrency: ENRICHMENT_CONCURRENCY, logger: pctx.logger }),
      };
    },
  });
}

import { defineNode, type NodeDefinition } from '@quarry/core';
import type { ZodType } from 'zod';
import { PROVIDER_ALIASES } from '../providers/models.js';
import type { ProviderName } from '../providers/types.js';
import type { EnrichmentTask } from './enrichment-task.js';
import { prompterProblems } from './prompter-rules.js';
import { PROMPTER_TASKS, prompterUnknownSubtype, type PrompterTask } from './prompter-tasks.js';

/** What a prompter node declares for validation besides its schema. */
export type PrompterRules = Pick<NodeDefinition<unknown>, 'aliases' | 'check' | 'unknownSetting'>;

/**
 * An {@link EnrichmentTask} as a node definition holds it: its description for listings, and the
 * task itself, imported when a job first creates the node.
 */
export interface LazyTask<S> {
  description: string;
  load(): Promise<EnrichmentTask<S>>;
}

/**
 * Lifts an {@link EnrichmentTask} into a `prompter` node definition, its `settings` schema built
 * on first validation and the task and its runner imported by `create`. `bind` chooses the
 * provider and model from the parsed settings; the plan facts (partitioner, image block types,
 * other enrichment nodes) are read once per job.
 */
export function prompterNode<S>(
  subtype: string,
  task: LazyTask<S>,
  settings: () => ZodType<S>,
  bind: (settings: S) => { provider: ProviderName; model: string },
  rules: PrompterRules = {},
): NodeDefinition<S> {
  return defineNode<S>({
    type: 'prompter',
    subtype,
    description: task.description,
    get settings() {
      return settings();
    },
    ...rules,
    unknownSubtype: prompterUnknownSubtype,
    create: async (parsed, ctx) => {
      const [run, { planFacts, prompterLlm, runEnrichment, ENRICHMENT_CONCURRENCY }] = await Promise.all([task.load(), import('./prompter-runtime.js')]);
      const plan = planFacts(ctx.nodes);
      const { provider, model } = bind(parsed);
      const llm = prompterLlm(provider, model, { services: ctx.services, logger: ctx.logger });
      return {
        process: (flow, pctx) =>
          runEnrichment(flow.elements, run, plan, { llm, settings: parsed, signal: pctx.signal }, { concurrency: ENRICHMENT_CONCURRENCY, logger: pctx.logger }),
      };
    },
  });
}

const bindSettings = (s: { provider_type: ProviderName; model: string }): { provider: ProviderName; model: string } => ({
  provider: s.provider_type,
  model: s.model,
});

/**
 * The `<provider>_<task>` nodes of one task, one per provider the task allows
 * (`anthropic_image_description`, `openai_ner`, ...), each also spelled with the provider's
 * neutral alias (`provider_a_ner`) and carrying the prompter rules.
 */
export function taskNodes<S extends { provider_type: ProviderName; model: string }>(
  task: PrompterTask,
  run: LazyTask<S>,
  settings: () => ZodType<S>,
): Array<NodeDefinition<S>> {
  return PROMPTER_TASKS[task].map((provider) => {
    const aliases = Object.entries(PROVIDER_ALIASES)
      .filter(([, real]) => real === provider)
      .map(([alias]) => `${alias}_${task}`);
    return prompterNode<S>(`${provider}_${task}`, run, settings, bindSettings, { aliases, check: prompterProblems });
  });
}

import { createHash } from 'node:crypto';
import { stableStringify, type PipelineInput, type Plan } from '@quarry/core';

/** The workflow a plan was compiled from, in the library form every worker can build again. */
export function pipelineOf(plan: Plan): PipelineInput {
  return {
    name: plan.name,
    nodes: plan.nodes.map((n) => ({ name: n.name, type: n.type, subtype: n.subtype, settings: n.settings })),
    reprocess_all: plan.reprocessAll,
  };
}

/** Content version of a workflow: the same nodes and settings always give the same version. */
export function workflowVersion(workflow: PipelineInput): string {
  return createHash('sha256').update(stableStringify(workflow)).digest('hex').slice(0, 16);
}

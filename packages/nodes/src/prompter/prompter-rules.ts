import { nodeLabel, nodePath, type NodeCheckContext, type NodeView, type PathProblem } from '@quarry/core';
import { partitionVariant } from '../partition/partition-variant.js';
import { normalizeProvider } from '../providers/models.js';
import { retiredModelProblems } from '../providers/model-rules.js';
import { IMAGE_TABLE_TASKS, TWOPASS_TABLE2HTML, parsePrompterSubtype } from './prompter-tasks.js';

/**
 * The enrichment conditions: an image/table/OCR prompter is not allowed after a VLM partitioner
 * (which describes images and tables itself) and never produces output after a Fast one.
 */
export function enrichmentProblems(self: NodeView, { nodes }: NodeCheckContext): PathProblem[] {
  const task = self.subtype ? parsePrompterSubtype(self.subtype)?.task : undefined;
  if (!task || !IMAGE_TABLE_TASKS.has(task)) return [];
  const partition = nodes.find((n) => n.type === 'partition');
  const variant = partition && partitionVariant(partition);
  if (variant === 'vlm') {
    return [
      {
        code: 'enrichment.not_allowed_with_vlm',
        path: nodePath(self),
        message: `${self.subtype} ${nodeLabel(self)} is not allowed with a VLM partitioner (vlm with is_dynamic false), which produces image/table descriptions itself; remove the node or use Auto (is_dynamic true) or High Res`,
      },
    ];
  }
  if (variant === 'fast') {
    // After Fast such output is "never generated": a node that can never produce anything is a
    // mistake worth stopping, and validation has no warning channel.
    return [
      {
        code: 'enrichment.no_output_with_fast',
        path: nodePath(self),
        message: `${self.subtype} ${nodeLabel(self)} never produces output after a Fast partitioner (strategy "fast"); use strategy "hi_res" or an Auto partitioner, or remove the node`,
      },
    ];
  }
  return [];
}

/** `prompter.provider_type_mismatch` when `provider_type` names another provider than the subtype. */
export function providerTypeProblems(self: NodeView): PathProblem[] {
  const parsed = self.subtype ? parsePrompterSubtype(self.subtype) : undefined;
  if (!parsed || parsed.task === TWOPASS_TABLE2HTML) return [];
  const given = normalizeProvider(self.settings.provider_type);
  if (!given || !parsed.provider || given === parsed.provider) return [];
  return [
    {
      code: 'prompter.provider_type_mismatch',
      path: [...nodePath(self), 'settings', 'provider_type'],
      message: `provider_type ${JSON.stringify(self.settings.provider_type)} does not match the subtype ${self.subtype}, whose provider is ${parsed.provider}`,
    },
  ];
}

/** Every rule of a `<provider>_<task>` prompter: enrichment conditions, provider_type, retired model. */
export function prompterProblems(self: NodeView, workflow: NodeCheckContext): PathProblem[] {
  return [...enrichmentProblems(self, workflow), ...providerTypeProblems(self), ...retiredModelProblems(self, workflow.now)];
}

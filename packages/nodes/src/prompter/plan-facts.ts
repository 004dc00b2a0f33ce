import type { ElementType, WorkflowNodeRef } from '@quarry/core';
import { parsePrompterSubtype } from '@quarry/core';
import { blockTypes } from '../partition/formats/pdf-hi-res.js';

/** The partitioner variants of SPEC.md. */
export type PartitionerVariant = 'auto' | 'vlm' | 'hi_res' | 'fast';

/** What an enrichment node needs to know about the rest of the plan. */
export interface PlanFacts {
  /** The plan's partitioner variant; undefined when the plan has none SPEC.md names. */
  partitioner: PartitionerVariant | undefined;
  /** Element types of the partitioner's `extract_image_block_types`, aliases resolved. */
  imageBlockTypes: ReadonlySet<ElementType>;
  /** True when the plan has an image description node (generative OCR then skips Image elements). */
  describesImages: boolean;
  /** True when the plan has a table description node (generative OCR then skips Table elements). */
  describesTables: boolean;
}

function variantOf(node: WorkflowNodeRef): PartitionerVariant | undefined {
  const s = node.settings ?? {};
  if (node.subtype === 'vlm') return s.is_dynamic === true ? 'auto' : s.is_dynamic === false ? 'vlm' : undefined;
  if (node.subtype === 'unstructured_api') return s.strategy === 'hi_res' ? 'hi_res' : s.strategy === 'fast' ? 'fast' : undefined;
  return undefined;
}

/** Reads {@link PlanFacts} from the plan's node list (`NodeCreateContext.nodes`). */
export function planFacts(nodes: readonly WorkflowNodeRef[]): PlanFacts {
  const partition = nodes.find((n) => n.type === 'partition');
  const raw = partition?.settings?.extract_image_block_types;
  const tasks = nodes.filter((n) => n.type === 'prompter').map((n) => parsePrompterSubtype(n.subtype)?.task);
  return {
    partitioner: partition ? variantOf(partition) : undefined,
    imageBlockTypes: blockTypes(Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : []),
    describesImages: tasks.includes('image_description'),
    describesTables: tasks.includes('table_description'),
  };
}

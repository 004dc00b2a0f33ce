import type { ElementType, WorkflowNodeRef } from '@quarry/core';
import { partitionVariant, type PartitionVariant } from '../partition/partition-variant.js';
import { parsePrompterSubtype } from './prompter-tasks.js';
import { blockTypes } from '../partition/block-types.js';

/** The partitioner variants. */
export type PartitionerVariant = PartitionVariant;

/** What an enrichment node needs to know about the rest of the plan. */
export interface PlanFacts {
  /** The plan's partitioner variant; undefined when the plan has none the Unstructured workflow API names. */
  partitioner: PartitionerVariant | undefined;
  /** Element types of the partitioner's `extract_image_block_types`, aliases resolved. */
  imageBlockTypes: ReadonlySet<ElementType>;
  /** True when the plan has an image description node (generative OCR then skips Image elements). */
  describesImages: boolean;
  /** True when the plan has a table description node (generative OCR then skips Table elements). */
  describesTables: boolean;
}

/** Reads {@link PlanFacts} from the plan's node list (`NodeCreateContext.nodes`). */
export function planFacts(nodes: readonly WorkflowNodeRef[]): PlanFacts {
  const partition = nodes.find((n) => n.type === 'partition');
  const raw = partition?.settings?.extract_image_block_types;
  const tasks = nodes.filter((n) => n.type === 'prompter').map((n) => parsePrompterSubtype(n.subtype)?.task);
  return {
    partitioner: partition ? partitionVariant(partition) : undefined,
    imageBlockTypes: blockTypes(Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : []),
    describesImages: tasks.includes('image_description'),
    describesTables: tasks.includes('table_description'),
  };
}

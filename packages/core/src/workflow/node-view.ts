import type { NodeType } from '../plugin/types.js';
import type { BodyPath } from './problems.js';
import type { WorkflowRegistryView } from './registry-view.js';

/** One node as the rules see it: possibly only partly valid, so every field is read defensively. */
export interface NodeView {
  /** Position in `workflow_nodes`. */
  index: number;
  name?: string;
  /** Undefined when the type is not a node type. */
  type?: NodeType;
  /** The registered subtype (aliases rewritten), or the subtype as written when nothing registers it. */
  subtype?: string;
  /** True when a registered node implements the type and subtype. */
  registered: boolean;
  /** Parsed settings when they were valid, else the raw settings object. */
  settings: Record<string, unknown>;
}

/** What a node's own rules ({@link NodeDefinition.check}) see of the workflow. */
export interface NodeCheckContext {
  /** Every node of the workflow, in order. */
  nodes: readonly NodeView[];
  /** Clock for date-dependent rules (retired models). */
  now: Date;
  registry: WorkflowRegistryView;
}

/** The path of a node in the body. */
export const nodePath = (n: NodeView): BodyPath => ['workflow_nodes', n.index];

/** `"Chunker" (workflow_nodes/3)`, or `workflow_nodes/3` for a node without a name: how messages name a node. */
export function nodeLabel(n: NodeView): string {
  return n.name ? `${JSON.stringify(n.name)} (workflow_nodes/${n.index})` : `workflow_nodes/${n.index}`;
}

import type { NodeView } from '../plugin/types.js';
import type { BodyPath } from './problems.js';

export type { NodeCheckContext, NodeView } from '../plugin/types.js';

/** The path of a node in the body. */
export const nodePath = (n: NodeView): BodyPath => ['workflow_nodes', n.index];

/** `"Chunker" (workflow_nodes/3)`, or `workflow_nodes/3` for a node without a name: how messages name a node. */
export function nodeLabel(n: NodeView): string {
  return n.name ? `${JSON.stringify(n.name)} (workflow_nodes/${n.index})` : `workflow_nodes/${n.index}`;
}

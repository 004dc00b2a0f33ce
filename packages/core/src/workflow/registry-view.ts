import type { EmbeddingModelInfo, NodeDefinition, NodeType } from '../plugin/types.js';

/**
 * What workflow validation needs from a plugin registry. The core `Registry` class satisfies it;
 * a service can pass any object with these methods.
 */
export interface WorkflowRegistryView {
  /** The definition of a registered node, by subtype or alias, or undefined. */
  findNode(type: string, subtype: string): NodeDefinition<unknown> | undefined;
  /** Facts about one embedding model of a provider (embedder subtype), or undefined. */
  embeddingModel(provider: string, model: string): EmbeddingModelInfo | undefined;
  /** Every known embedding model, or those of one provider. */
  embeddingModels(provider?: string): EmbeddingModelInfo[];
  /** Registered subtypes of a node type; when present, listed in unknown-subtype messages. */
  nodeSubtypes?(type: NodeType): string[];
}

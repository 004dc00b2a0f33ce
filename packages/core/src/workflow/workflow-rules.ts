import type { NodeType } from '../plugin/types.js';
import { nodeLabel, nodePath, type NodeView } from './node-view.js';
import type { PathProblem } from './problems.js';
import type { WorkflowRegistryView } from '../plugin/types.js';
import { isInt } from './schema-helpers.js';

/** The workflow as the rules see it. */
export interface WorkflowView {
  mode: 'create' | 'update';
  /** Only set when valid. */
  workflowType?: 'custom' | 'template';
  /** Which top-level fields carry a value (null counts as absent). */
  has: { source_id: boolean; template_id: boolean; schedule: boolean; workflow_nodes: boolean };
  /** Present when `workflow_nodes` is an array. */
  nodes?: NodeView[];
}

/** Options of {@link workflowRuleProblems}. */
export interface RuleOptions {
  now: Date;
  registry?: WorkflowRegistryView;
}

function topLevelRules(view: WorkflowView, out: PathProblem[]): void {
  const { has, workflowType, mode } = view;
  const nodesEmpty = view.nodes !== undefined && view.nodes.length === 0;
  if (workflowType === 'template') {
    if (has.workflow_nodes) {
      out.push({
        code: 'template.workflow_nodes_not_allowed',
        path: ['workflow_nodes'],
        message: 'a template workflow takes its nodes from the template: omit workflow_nodes (or use workflow_type "custom")',
      });
    }
    // On update the stored workflow may already hold the template_id, so only create requires it.
    if (mode === 'create' && !has.template_id) {
      out.push({ code: 'template.template_id_required', path: ['template_id'], message: 'template_id is required when workflow_type is "template"' });
    }
  }
  if (workflowType === 'custom') {
    if (has.template_id) {
      out.push({
        code: 'custom.template_id_not_allowed',
        path: ['template_id'],
        message: 'template_id applies only to workflow_type "template"; a custom workflow lists its own workflow_nodes',
      });
    }
    if (mode === 'create' && (!has.workflow_nodes || nodesEmpty)) {
      out.push({
        code: 'custom.workflow_nodes_required',
        path: ['workflow_nodes'],
        message: 'a custom workflow needs workflow_nodes, starting with a partition node',
      });
    }
  }
  if (nodesEmpty && !(mode === 'create' && workflowType === 'custom') && workflowType !== 'template') {
    out.push({
      code: 'custom.workflow_nodes_required',
      path: ['workflow_nodes'],
      message: 'workflow_nodes must not be empty: it needs at least a partition node',
    });
  }
  // A missing source_id on update means "unchanged", so the local-source rules apply to create only.
  if (mode === 'create' && !has.source_id) {
    if (workflowType === 'template') {
      out.push({
        code: 'local.custom_required',
        path: ['workflow_type'],
        message: 'a workflow without source_id (local source) must have workflow_type "custom"',
      });
    }
    if (has.schedule) {
      out.push({
        code: 'local.schedule_not_allowed',
        path: ['schedule'],
        message: 'a workflow without source_id (local source) cannot have a schedule; omit schedule or give a source_id',
      });
    }
  }
}

function orderRules(nodes: readonly NodeView[], out: PathProblem[]): void {
  const of = (t: NodeType) => nodes.filter((n) => n.type === t);
  const partitions = of('partition');
  const chunkers = of('chunk');
  const embedders = of('embed');
  const [partition] = partitions;
  if (!partition) {
    out.push({
      code: 'order.partition_required',
      path: ['workflow_nodes'],
      message: 'workflow_nodes needs exactly one partition node, placed first; none was found',
    });
  } else if (nodes[0] !== partition) {
    out.push({
      code: 'order.partition_not_first',
      path: nodePath(partition),
      message: `the partition node ${nodeLabel(partition)} must be the first node (it follows the Source node)`,
    });
  }
  for (const extra of partitions.slice(1)) {
    out.push({
      code: 'order.multiple_partitions',
      path: nodePath(extra),
      message: `only one partition node is allowed; ${nodeLabel(extra)} is another after ${nodeLabel(partition!)}`,
    });
  }
  for (const extra of chunkers.slice(1)) {
    out.push({
      code: 'order.multiple_chunkers',
      path: nodePath(extra),
      message: `only one chunk node is allowed; ${nodeLabel(extra)} is another after ${nodeLabel(chunkers[0]!)}`,
    });
  }
  for (const extra of embedders.slice(1)) {
    out.push({
      code: 'order.multiple_embedders',
      path: nodePath(extra),
      message: `only one embed node is allowed; ${nodeLabel(extra)} is another after ${nodeLabel(embedders[0]!)}`,
    });
  }
  const [chunker] = chunkers;
  if (chunker) {
    for (const p of of('prompter').filter((n) => n.index > chunker.index)) {
      out.push({
        code: 'order.chunker_before_enrichment',
        path: nodePath(p),
        message: `the prompter node ${nodeLabel(p)} comes after the chunker ${nodeLabel(chunker)}; the chunker must follow all enrichment nodes, or enrichment results may be incomplete or missing`,
      });
    }
  }
  const [embedder] = embedders;
  if (embedder) {
    const after = nodes.filter((n) => n.index > embedder.index && n.type !== undefined && n.type !== 'embed');
    if (after.length) {
      out.push({
        code: 'order.embed_not_last',
        path: nodePath(embedder),
        message: `the embed node ${nodeLabel(embedder)} must be the last node, but ${after.map(nodeLabel).join(', ')} follow${after.length > 1 ? '' : 's'} it`,
      });
    }
    if (!chunker) {
      out.push({
        code: 'order.embed_requires_chunker',
        path: nodePath(embedder),
        message: `the embed node ${nodeLabel(embedder)} needs a chunk node before it: embedders embed chunks`,
      });
    }
  }
}

/**
 * Node ordering rule 5 against the plugin contract's embedding models: the embedder's model must be
 * known when its provider registers models (or the embedder runs registered models only), and the
 * chunker's largest chunk must fit the model's recommended maximum.
 */
function embedRules(nodes: readonly NodeView[], registry: WorkflowRegistryView, out: PathProblem[]): void {
  const embedder = nodes.find((n) => n.type === 'embed');
  if (!embedder?.subtype) return;
  const modelName = embedder.settings.model_name;
  if (typeof modelName !== 'string' || !modelName) return;
  const known = registry.embeddingModels(embedder.subtype);
  const embedDef = embedder.registered ? registry.findNode('embed', embedder.subtype) : undefined;
  // An embedder that declares no models and may run any has nothing to check against.
  if (!embedDef?.registeredModelsOnly && known.length === 0) return;
  const info = registry.embeddingModel(embedder.subtype, modelName);
  if (!info) {
    out.push({
      code: 'embed.unknown_model',
      path: [...nodePath(embedder), 'settings', 'model_name'],
      message: `unknown ${embedder.subtype} embedding model ${JSON.stringify(modelName)}; known ${embedder.subtype} models: ${known.length ? known.map((m) => m.model_name).join(', ') : '(none registered)'}`,
    });
    return;
  }
  const chunker = nodes.find((n) => n.type === 'chunk');
  if (!chunker) return;
  const limit = chunkerMaximum(chunker, registry);
  if (limit && limit.max > info.max_characters) {
    out.push({
      code: 'order.max_characters_exceeds_model',
      path: [...nodePath(chunker), 'settings', 'max_characters'],
      message: `the chunker's max_characters ${limit.max}${limit.unset ? ' (unset: the library default)' : ''} exceeds ${info.max_characters}, the recommended maximum chunk size of embedding model ${info.model_name} (${info.provider}); set max_characters to ${info.max_characters} or less`,
    });
  }
}

/** The chunker's declared largest chunk; for a chunker that declares none, a positive `max_characters` setting. */
function chunkerMaximum(chunker: NodeView, registry: WorkflowRegistryView): { max: number; unset: boolean } | undefined {
  const def = chunker.registered && chunker.subtype ? registry.findNode('chunk', chunker.subtype) : undefined;
  if (def?.chunkMaxCharacters) return def.chunkMaxCharacters(chunker.settings);
  const raw = chunker.settings.max_characters;
  return isInt(raw) && raw > 0 ? { max: raw, unset: false } : undefined;
}

/** Runs every registered node's own rules, node by node. */
function nodeRules(nodes: readonly NodeView[], registry: WorkflowRegistryView, now: Date, out: PathProblem[]): void {
  for (const n of nodes) {
    if (!n.registered || !n.type || !n.subtype) continue;
    const def = registry.findNode(n.type, n.subtype);
    if (def?.check) out.push(...def.check(n, { nodes, now, registry }));
  }
}

/**
 * The rules that span fields or nodes: template/custom/local-source rules and node ordering rules
 * 1-5 (workflow shape), then each registered node's own rules ({@link NodeDefinition.check}).
 * Works on partly invalid input, so it can run alongside structural checks.
 */
export function workflowRuleProblems(view: WorkflowView, options: RuleOptions): PathProblem[] {
  const out: PathProblem[] = [];
  topLevelRules(view, out);
  const nodes = view.nodes;
  if (nodes && nodes.length > 0) {
    orderRules(nodes, out);
    if (options.registry) {
      nodeRules(nodes, options.registry, options.now, out);
      embedRules(nodes, options.registry, out);
    }
  }
  return out;
}

import type { NodeType } from '../plugin/types.js';
import { CHUNK_MAX_CHARS_DEFAULT } from './chunk-settings.js';
import { IMAGE_TABLE_TASKS, TWOPASS_TABLE2HTML, parsePrompterSubtype } from './node-kinds.js';
import type { BodyPath, PathProblem } from './problems.js';
import { normalizeProvider, retiredModel } from './providers.js';
import type { WorkflowRegistryView } from './registry-view.js';
import { isInt } from './schema-helpers.js';

/** One node as the rules see it: possibly only partly valid, so every field is read defensively. */
export interface NodeView {
  /** Position in `workflow_nodes`. */
  index: number;
  name?: string;
  /** Undefined when the type is not a node type. */
  type?: NodeType;
  /** Subtype with provider aliases rewritten. */
  subtype?: string;
  /** True for a SPEC.md node kind (false for plugin nodes and unknown subtypes). */
  spec: boolean;
  /** Parsed settings when they were valid, else the raw settings object. */
  settings: Record<string, unknown>;
}

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

/** The four partitioner variants of SPEC.md. */
export type PartitionVariant = 'auto' | 'vlm' | 'hi_res' | 'fast';

/** Which partitioner variant a node is; undefined when it is no SPEC.md partitioner or the deciding setting is invalid. */
export function partitionVariant(node: NodeView): PartitionVariant | undefined {
  if (node.type !== 'partition' || !node.spec) return undefined;
  const s = node.settings;
  if (node.subtype === 'vlm') return s.is_dynamic === true ? 'auto' : s.is_dynamic === false ? 'vlm' : undefined;
  if (node.subtype === 'unstructured_api') return s.strategy === 'hi_res' ? 'hi_res' : s.strategy === 'fast' ? 'fast' : undefined;
  return undefined;
}

const nodePath = (n: NodeView): BodyPath => ['workflow_nodes', n.index];

/** `"Chunker" (workflow_nodes/3)`, or `workflow_nodes/3` for a node without a name. */
function label(n: NodeView): string {
  return n.name ? `${JSON.stringify(n.name)} (workflow_nodes/${n.index})` : `workflow_nodes/${n.index}`;
}

function topLevelRules(view: WorkflowView, out: PathProblem[]): void {
  const { has, workflowType, mode } = view;
  const nodesEmpty = view.nodes !== undefined && view.nodes.length === 0;
  if (workflowType === 'template') {
    if (has.workflow_nodes) {
      out.push({ code: 'template.workflow_nodes_not_allowed', path: ['workflow_nodes'], message: 'a template workflow takes its nodes from the template: omit workflow_nodes (or use workflow_type "custom")' });
    }
    // On update the stored workflow may already hold the template_id, so only create requires it.
    if (mode === 'create' && !has.template_id) {
      out.push({ code: 'template.template_id_required', path: ['template_id'], message: 'template_id is required when workflow_type is "template"' });
    }
  }
  if (workflowType === 'custom') {
    if (has.template_id) {
      out.push({ code: 'custom.template_id_not_allowed', path: ['template_id'], message: 'template_id applies only to workflow_type "template"; a custom workflow lists its own workflow_nodes' });
    }
    if (mode === 'create' && (!has.workflow_nodes || nodesEmpty)) {
      out.push({ code: 'custom.workflow_nodes_required', path: ['workflow_nodes'], message: 'a custom workflow needs workflow_nodes, starting with a partition node' });
    }
  }
  if (nodesEmpty && !(mode === 'create' && workflowType === 'custom') && workflowType !== 'template') {
    out.push({ code: 'custom.workflow_nodes_required', path: ['workflow_nodes'], message: 'workflow_nodes must not be empty: it needs at least a partition node' });
  }
  // A missing source_id on update means "unchanged", so the local-source rules apply to create only.
  if (mode === 'create' && !has.source_id) {
    if (workflowType === 'template') {
      out.push({ code: 'local.custom_required', path: ['workflow_type'], message: 'a workflow without source_id (local source) must have workflow_type "custom"' });
    }
    if (has.schedule) {
      out.push({ code: 'local.schedule_not_allowed', path: ['schedule'], message: 'a workflow without source_id (local source) cannot have a schedule; omit schedule or give a source_id' });
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
    out.push({ code: 'order.partition_required', path: ['workflow_nodes'], message: 'workflow_nodes needs exactly one partition node, placed first; none was found' });
  } else if (nodes[0] !== partition) {
    out.push({ code: 'order.partition_not_first', path: nodePath(partition), message: `the partition node ${label(partition)} must be the first node (it follows the Source node)` });
  }
  for (const extra of partitions.slice(1)) {
    out.push({ code: 'order.multiple_partitions', path: nodePath(extra), message: `only one partition node is allowed; ${label(extra)} is another after ${label(partition!)}` });
  }
  for (const extra of chunkers.slice(1)) {
    out.push({ code: 'order.multiple_chunkers', path: nodePath(extra), message: `only one chunk node is allowed; ${label(extra)} is another after ${label(chunkers[0]!)}` });
  }
  for (const extra of embedders.slice(1)) {
    out.push({ code: 'order.multiple_embedders', path: nodePath(extra), message: `only one embed node is allowed; ${label(extra)} is another after ${label(embedders[0]!)}` });
  }
  const [chunker] = chunkers;
  if (chunker) {
    for (const p of of('prompter').filter((n) => n.index > chunker.index)) {
      out.push({
        code: 'order.chunker_before_enrichment',
        path: nodePath(p),
        message: `the prompter node ${label(p)} comes after the chunker ${label(chunker)}; the chunker must follow all enrichment nodes, or enrichment results may be incomplete or missing`,
      });
    }
  }
  const [embedder] = embedders;
  if (embedder) {
    const after = nodes.filter((n) => n.index > embedder.index && n.type !== undefined && n.type !== 'embed');
    if (after.length) {
      out.push({ code: 'order.embed_not_last', path: nodePath(embedder), message: `the embed node ${label(embedder)} must be the last node, but ${after.map(label).join(', ')} follow${after.length > 1 ? '' : 's'} it` });
    }
    if (!chunker) {
      out.push({ code: 'order.embed_requires_chunker', path: nodePath(embedder), message: `the embed node ${label(embedder)} needs a chunk node before it: embedders embed chunks` });
    }
  }
}

function enrichmentRules(nodes: readonly NodeView[], out: PathProblem[]): void {
  const partition = nodes.find((n) => n.type === 'partition');
  const variant = partition && partitionVariant(partition);
  if (variant !== 'vlm' && variant !== 'fast') return;
  for (const n of nodes) {
    if (n.type !== 'prompter' || !n.spec || !n.subtype) continue;
    const task = parsePrompterSubtype(n.subtype)?.task;
    if (!task || !IMAGE_TABLE_TASKS.has(task)) continue;
    if (variant === 'vlm') {
      out.push({
        code: 'enrichment.not_allowed_with_vlm',
        path: nodePath(n),
        message: `${n.subtype} ${label(n)} is not allowed with a VLM partitioner (vlm with is_dynamic false), which produces image/table descriptions itself; remove the node or use Auto (is_dynamic true) or High Res`,
      });
    } else {
      // SPEC.md condition 4: after Fast such output is "never generated". A node that can never
      // produce anything is a mistake worth stopping, and validation has no warning channel.
      out.push({
        code: 'enrichment.no_output_with_fast',
        path: nodePath(n),
        message: `${n.subtype} ${label(n)} never produces output after a Fast partitioner (strategy "fast"); use strategy "hi_res" or an Auto partitioner, or remove the node`,
      });
    }
  }
}

function prompterRules(nodes: readonly NodeView[], now: Date, out: PathProblem[]): void {
  for (const n of nodes) {
    if (!n.spec || !n.subtype) continue;
    if (n.type === 'prompter') {
      const parsed = parsePrompterSubtype(n.subtype);
      if (!parsed || parsed.task === TWOPASS_TABLE2HTML) continue;
      const given = normalizeProvider(n.settings.provider_type);
      if (given && parsed.provider && given !== parsed.provider) {
        out.push({
          code: 'prompter.provider_type_mismatch',
          path: [...nodePath(n), 'settings', 'provider_type'],
          message: `provider_type ${JSON.stringify(n.settings.provider_type)} does not match the subtype ${n.subtype}, whose provider is ${parsed.provider}`,
        });
      }
    }
    if ((n.type === 'prompter' || (n.type === 'partition' && n.subtype === 'vlm')) && typeof n.settings.model === 'string') {
      const retired = retiredModel(n.settings.model, now);
      if (retired) {
        out.push({
          code: 'model.retired',
          path: [...nodePath(n), 'settings', 'model'],
          message: `model ${JSON.stringify(retired.model)} was retired on ${retired.retired}; workflows using it fail from that date. Use a current ${retired.provider} model such as ${retired.replacement}`,
        });
      }
    }
  }
}

function embedRules(nodes: readonly NodeView[], registry: WorkflowRegistryView | undefined, out: PathProblem[]): void {
  const embedder = nodes.find((n) => n.type === 'embed');
  if (!registry || !embedder?.subtype) return;
  const modelName = embedder.settings.model_name;
  if (typeof modelName !== 'string' || !modelName) return;
  const known = registry.embeddingModels(embedder.subtype);
  // A plugin embedder that declares no models has nothing to check against.
  if (!embedder.spec && known.length === 0) return;
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
  const raw = chunker.settings.max_characters;
  const unset = raw === undefined || raw === null;
  if (!unset && !(isInt(raw) && raw > 0)) return;
  const max = unset ? CHUNK_MAX_CHARS_DEFAULT : (raw as number);
  if (max > info.max_characters) {
    out.push({
      code: 'order.max_characters_exceeds_model',
      path: [...nodePath(chunker), 'settings', 'max_characters'],
      message: `the chunker's max_characters ${max}${unset ? ' (unset: the library default)' : ''} exceeds ${info.max_characters}, the recommended maximum chunk size of embedding model ${info.model_name} (${info.provider}); set max_characters to ${info.max_characters} or less`,
    });
  }
}

/**
 * The SPEC.md rules that span fields or nodes: template/custom/local-source rules, node ordering
 * rules 1-5, partitioner/enrichment conditions, prompter provider consistency and model retirement.
 * Works on partly invalid input, so it can run alongside structural checks.
 */
export function workflowRuleProblems(view: WorkflowView, options: RuleOptions): PathProblem[] {
  const out: PathProblem[] = [];
  topLevelRules(view, out);
  const nodes = view.nodes;
  if (nodes && nodes.length > 0) {
    orderRules(nodes, out);
    enrichmentRules(nodes, out);
    prompterRules(nodes, options.now, out);
    embedRules(nodes, options.registry, out);
  }
  return out;
}

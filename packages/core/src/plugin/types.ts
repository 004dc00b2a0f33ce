import type { ErrorCodeTable } from '../errors.js';
import type { Services } from './services.js';
import type { OperatorFunction } from 'rxjs';
import type { Element } from '../element/types.js';
import type { DataSourceMetadata } from '../element/types.js';
import type { SettingsSchema } from './settings.js';
import type { PathProblem, ProblemCode, ProblemCodeTable } from '../workflow/problems.js';

/** Node kinds of a workflow (the Unstructured workflow API's `type`). */
export const NODE_TYPES = ['partition', 'prompter', 'chunk', 'embed'] as const;
/** A node kind. */
export type NodeType = (typeof NODE_TYPES)[number];

/** What travels between nodes, in order: bytes, then elements, then chunks, then vectors. */
export type Stage = 'file' | 'elements' | 'chunks' | 'vectors';

/** Which stages each node kind consumes and produces; ordering errors fall out of these. */
export const NODE_STAGES: Readonly<Record<NodeType, { consumes: readonly Stage[]; produces: Stage }>> = {
  partition: { consumes: ['file'], produces: 'elements' },
  prompter: { consumes: ['elements'], produces: 'elements' },
  chunk: { consumes: ['elements'], produces: 'chunks' },
  embed: { consumes: ['elements', 'chunks'], produces: 'vectors' },
};

/** One document offered by a source. Bytes are read lazily, only when the document is processed. */
export interface SourceDocument {
  /** Stable identity of the document across runs (e.g. a relative path or a remote id). */
  record_id: string;
  /** File name (basename) used in element metadata. */
  filename: string;
  /** Directory part, when the source has one. */
  file_directory?: string;
  /** MIME type when the source knows it; partitioners detect it otherwise. */
  filetype?: string;
  /** Version of the content; drives incremental runs (`reprocess_all: false`). */
  version?: string;
  /** Size in bytes when known. */
  size?: number;
  /** Last modification time (ISO 8601) when known. */
  last_modified?: string;
  /** Provenance written to every element's `metadata.data_source`. */
  data_source: DataSourceMetadata;
  /** Reads the document's bytes. */
  read(signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * A file on this machine that holds the document's bytes, when the source has one (a local
   * directory, an upload): a partition process then reads it itself, so the bytes never pass
   * through this process (a server's event loop).
   */
  localPath?: string;
}

/**
 * A listed document without its reader (nor its local file, which another machine does not have):
 * what crosses a process boundary (the record locator of a distributed task).
 * {@link SourceConnector.get} turns it back into a document.
 */
export type SourceRecord = Omit<SourceDocument, 'read' | 'localPath'>;

/** One document's state between nodes. */
export interface Flow {
  document: SourceDocument;
  elements: Element[];
}

/** A document that failed in a node: it skips later nodes and is listed in the job summary. */
export interface FailedFlow {
  document: SourceDocument;
  error: unknown;
  /** Node name where it failed; the engine fills it when absent. */
  node?: string;
}

/** Output of an operator node: a processed flow or a failure for that document alone. */
export type FlowResult = Flow | FailedFlow;

/** True when a {@link FlowResult} is a failure. */
export function isFailedFlow(r: FlowResult): r is FailedFlow {
  return 'error' in r;
}

/** A minimal structured logger. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A node of the workflow as written by the user. */
export interface WorkflowNodeRef {
  name: string;
  type: NodeType;
  subtype: string;
  settings: Record<string, unknown>;
}

/** What a node factory receives once per job. */
export interface NodeCreateContext {
  /** This node as written in the workflow. */
  node: WorkflowNodeRef;
  /** Every node of the plan, in order (a chunker may look up the embedder, for example). */
  nodes: readonly WorkflowNodeRef[];
  logger: Logger;
  /** Aborts when the job is cancelled. */
  signal: AbortSignal;
  /** Shared per-job services registered by plugins (provider clients, tokenizers, ...). */
  services: Services;
  /** Every registered document format, in lookup order (a partition node hands them on). */
  formats: readonly FormatDefinition[];
}

/** What a per-document node call receives. */
export interface ProcessContext {
  /** Aborts when the job is cancelled or the node times out for this document. */
  signal: AbortSignal;
  logger: Logger;
  /** Name of the node being run. */
  nodeName: string;
}

/** A node that transforms one document at a time: the simplest contract. */
export interface ProcessNode {
  process(flow: Flow, ctx: ProcessContext): Element[] | Flow | Promise<Element[] | Flow>;
  /** Releases resources at the end of the job. */
  close?(): void | Promise<void>;
}

/** What an operator node receives. */
export interface OperatorContext {
  signal: AbortSignal;
  logger: Logger;
  nodeName: string;
}

/**
 * A node that sees the stream of documents, to batch, rate-limit or reorder. It must emit exactly one
 * {@link FlowResult} per input flow and must not hold a flow back indefinitely: flush partial batches
 * after a short wait, because only `concurrency` documents are in flight at once.
 */
export interface OperatorNode {
  operator(ctx: OperatorContext): OperatorFunction<Flow, FlowResult>;
  close?(): void | Promise<void>;
}

/** What a node factory returns. */
export type NodeInstance = ProcessNode | OperatorNode;

/** Declares a node kind a plugin provides. */
export interface NodeDefinition<S = Record<string, unknown>> {
  type: NodeType;
  /** The subtype it implements (`chunk_by_title`, `unstructured_api`, or a plugin's own). */
  subtype: string;
  /** One-line description for listings. */
  description?: string;
  /**
   * Settings schema: zod or JSON Schema. Parsed values (with defaults) are passed to `create`. It
   * may be a getter that builds the schema when a workflow or call is first checked (with
   * `lazySchema`): registering a plugin does not read it, so a plugin loads without zod.
   */
  settings: SettingsSchema<S>;
  /** Creates the node for one job. */
  create(settings: S, ctx: NodeCreateContext): NodeInstance | Promise<NodeInstance>;
  /** Other spellings of the subtype (`acme-ner` for `acme_ner`); validation rewrites them to `subtype`. */
  aliases?: readonly string[];
  /**
   * Setting names, for "applies only to" hints when a sibling subtype is given one of them.
   * Default: the keys of a zod object schema or the `properties` of a JSON Schema.
   */
  settingKeys?: readonly string[];
  /** Words the problem for an unknown setting `key`; undefined for the generic wording. */
  unknownSetting?(key: string): { code: ProblemCode; message: string } | undefined;
  /**
   * Words the problem for a subtype of this node's type that nothing registers (`acme_ner` when
   * no plugin registers an NER node for acme); `registered` lists the registered subtypes. Undefined: the generic wording.
   */
  unknownSubtype?(subtype: string, registered: readonly string[]): { code: ProblemCode; message: string } | undefined;
  /**
   * The node's own rules against the rest of the workflow (what it must follow, what it checks in
   * other nodes). Runs on partly invalid workflows too, so it reads every value defensively.
   */
  check?(self: NodeView, workflow: NodeCheckContext): PathProblem[];
  /**
   * A chunker's largest chunk for its settings (`unset` when that is its default), which node
   * ordering rule 5 compares with the embedding model's maximum. Undefined when it cannot be told.
   */
  chunkMaxCharacters?(settings: Record<string, unknown>): { max: number; unset: boolean } | undefined;
  /** An embedder that runs only registered embedding models: validation rejects other `model_name`s even when none is registered. */
  registeredModelsOnly?: boolean;
}

/** What a source factory receives. */
export interface ConnectorContext {
  logger: Logger;
  signal: AbortSignal;
}

/** A source connector instance: lists documents lazily. */
export interface SourceConnector {
  /** Yields documents on demand; the engine pulls at most `concurrency` ahead. */
  list(signal: AbortSignal): AsyncIterable<SourceDocument>;
  /** Cheap count of the documents `list` will yield, for progress bars; optional. */
  count?(signal: AbortSignal): Promise<number>;
  /**
   * Re-opens one document `list` yielded, from its record, on any machine that reaches the source
   * (distributed runs send records, not bytes, to workers). Sources without it run in-process only.
   */
  get?(record: SourceRecord, signal: AbortSignal): Promise<SourceDocument>;
  close?(): void | Promise<void>;
}

/** Facts a destination may need before the first write. */
export interface PlanInfo {
  nodes: readonly WorkflowNodeRef[];
  /** Embedding dimension count when the plan embeds and the model is known. */
  embeddingDimensions?: number;
  /**
   * True when other writers write this job's documents to the same destination at the same time
   * (the workers of a distributed run): what the destination holds is not only this instance's doing.
   */
  sharedWriters?: boolean;
}

/** A destination connector instance. */
export interface DestinationConnector {
  /** Called once before any write (create an index, a directory, ...). */
  prepare?(plan: PlanInfo): Promise<void>;
  /**
   * Writes one document's elements, replacing whatever an earlier run wrote for the same
   * `record_id`, so a re-run never duplicates. Must be atomic per document.
   */
  write(flow: Flow, ctx: { signal: AbortSignal }): Promise<void>;
  /**
   * Documents this destination takes in flight beyond the job's `concurrency`: a document waiting
   * on its write gives its slot to the next document, up to this many (a network destination that
   * batches writes across documents sets it; absent or 0, a document holds its slot until written).
   * The window slides: a document that found it full writes in its own slot, and moves behind (giving
   * its slot on) as soon as an earlier write behind ends.
   */
  readonly writeBehind?: number;
  close?(): void | Promise<void>;
}

/** Declares a source connector type. */
export interface SourceDefinition<C = Record<string, unknown>> {
  type: string;
  description?: string;
  config: SettingsSchema<C>;
  create(config: C, ctx: ConnectorContext): SourceConnector | Promise<SourceConnector>;
}

/** Declares a destination connector type. */
export interface DestinationDefinition<C = Record<string, unknown>> {
  type: string;
  description?: string;
  config: SettingsSchema<C>;
  create(config: C, ctx: ConnectorContext): DestinationConnector | Promise<DestinationConnector>;
}

/** An embedding model known to the engine (fills the Unstructured workflow API's node ordering rule 5). */
export interface EmbeddingModelInfo {
  /** Embedder subtype: the provider a plugin registered it under. */
  provider: string;
  model_name: string;
  dimensions: number;
  max_tokens: number;
  /** Recommended maximum chunk size in characters. */
  max_characters: number;
}

/**
 * A document format a plugin partitions: which files, and the module that partitions them. Only
 * data, so that it travels to the child processes that partition documents, which import the
 * module there (and only when a document of the format arrives).
 */
export interface FormatDefinition {
  /** Short unique name, e.g. `rtf`. */
  name: string;
  /** MIME types handled. The first is the canonical `filetype` written to metadata. */
  mimeTypes: readonly string[];
  /** Lower-case extensions with the dot, e.g. `.rtf`: they decide for `application/octet-stream`. */
  extensions: readonly string[];
  /**
   * Absolute URL of the module that partitions the format, e.g.
   * `new URL('./rtf.js', import.meta.url).href` or `import.meta.resolve('my-pkg/rtf')`.
   */
  module: string;
  /** The module's export holding the partitioner (an object with a `partition` function). */
  exportName: string;
}

/** One node of a {@link WorkflowTemplate}. */
export interface TemplateNode {
  /** Stable within the template. */
  id: string;
  name: string;
  type: NodeType;
  subtype: string;
  settings: Record<string, unknown>;
}

/** A predefined node layout a workflow can reference by `template_id`; a plugin supplies it. */
export interface WorkflowTemplate {
  id: string;
  name: string;
  description: string;
  version: string;
  /** ISO 8601 date of the last change to the layout. */
  last_updated: string;
  /** The nodes, in order; ids are stable within the template. */
  nodes: readonly TemplateNode[];
}

/** A bundle of nodes, connectors, models, formats, templates and codes registered together. */
export interface Plugin {
  name: string;
  /** Semver range of engine versions the plugin supports, e.g. `^0.1.0`. */
  engine: string;
  nodes?: NodeDefinition<unknown>[];
  sources?: SourceDefinition<unknown>[];
  destinations?: DestinationDefinition<unknown>[];
  embeddingModels?: EmbeddingModelInfo[];
  /** Document formats; a later plugin's format wins over an earlier one's for a MIME type they share. */
  formats?: FormatDefinition[];
  /**
   * The error codes the plugin throws, each with a one-line description: UPPER_SNAKE, and owned by
   * no other plugin nor core (registration checks both). Declare them to the type checker too, by
   * augmenting `QuarryErrorCodes`.
   */
  errorCodes?: ErrorCodeTable;
  /**
   * The workflow problem codes the plugin's node rules report, each with a one-line meaning:
   * `<area>.<what>` in lower snake case, owned by no other plugin nor core (registration checks
   * both). Declare them to the type checker too, by augmenting `QuarryProblemCodes`.
   */
  problemCodes?: ProblemCodeTable;
  /**
   * Workflow templates: node layouts that workflows and on-demand jobs name by `template_id`. An id
   * may be supplied by one plugin only. A template whose nodes some other plugin provides is listed
   * as unavailable until that plugin is registered.
   */
  templates?: readonly WorkflowTemplate[];
}

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

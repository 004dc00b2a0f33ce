/**
 * @quarry/core: the engine. Element model, workflow schema and validation, plans, the RxJS runtime,
 * the plugin registry. No file-format or vendor code lives here. The workflow service behind the
 * REST API is `@quarry/core/service`.
 *
 * Every name here is public on purpose (`api/core.api.md` is its report, checked by a test).
 */
export {
  CORE_ERROR_CODES,
  QuarryError,
  errorMessage,
  isQuarryError,
  quarryError,
  type ErrorCode,
  type ErrorCodeTable,
  type QuarryErrorCodes,
  type QuarryErrorOptions,
} from './errors.js';
export { ENGINE_VERSION } from './version.js';
export {
  ELEMENT_TYPES,
  decodeOrigElements,
  elementFromJSON,
  elementToJSON,
  elementsFromJSON,
  encodeOrigElements,
  flatElementMetadata,
  hashElementId,
  isEmptyJsonValue,
  origElementsOf,
  stableStringify,
  type Coordinates,
  type DataSourceMetadata,
  type Element,
  type ElementFromJSONOptions,
  type ElementLink,
  type ElementMetadata,
  type ElementType,
  type EnrichmentOrigin,
  type EntityItem,
  type EntityRelationship,
  type FlatMetadataValue,
} from './element/index.js';

// The engine and what plugins implement.
export {
  Engine,
  createEngine,
  type BuildOptions,
  type ConnectorSpec,
  type DestinationInput,
  type PipelineInput,
  type RunOptions,
  type SourceInput,
  type StreamOptions,
} from './engine.js';
export { defineDestination, defineNode, definePlugin, defineSource } from './plugin/define.js';
export { Registry } from './plugin/registry.js';
export { Services, serviceKey, type ServiceKey } from './plugin/services.js';
export { parseSettings, type JsonSchema, type SettingsProblem, type SettingsResult, type SettingsSchema } from './plugin/settings.js';
export { SHARED_RATE_BUDGETS_SERVICE, type RateBudget, type RateLimits, type SharedRateBudgets } from './plugin/rate-budgets.js';
export {
  isFailedFlow,
  type DestinationConnector,
  type DestinationDefinition,
  type EmbeddingModelInfo,
  type FailedFlow,
  type Flow,
  type FlowResult,
  type FormatDefinition,
  type Logger,
  type NodeCheckContext,
  type NodeCreateContext,
  type NodeDefinition,
  type NodeInstance,
  type NodeType,
  type NodeView,
  type OperatorContext,
  type OperatorNode,
  type PlanInfo,
  type Plugin,
  type ProcessContext,
  type ProcessNode,
  type SourceConnector,
  type SourceDefinition,
  type SourceDocument,
  type SourceRecord,
  type TemplateNode,
  type WorkflowNodeRef,
  type WorkflowTemplate,
} from './plugin/types.js';
export type { Plan, PlanNode } from './plan/plan.js';

// Jobs: events, summaries, streams, incremental state, logging and waiting.
export type { DocumentFailure, DocumentWarning, Job, JobEvent, JobStatus, JobSummary, NodeStats } from './runtime/events.js';
export type { DocumentStream, StreamedDocument } from './runtime/document-stream.js';
export { createJobShell, type JobShell } from './runtime/job-shell.js';
export { FileStateStore, MemoryStateStore, isUnchanged, type StateStore } from './runtime/state-store.js';
export { consoleLogger, silentLogger } from './runtime/logger.js';
export { abortReason, backoffDelay, sleep } from './runtime/sleep.js';
export { sha256File } from './file-hash.js';

// Workflow bodies: validation, problems, and the helpers a node's own rules use.
export {
  validateWorkflow,
  type ValidateWorkflowOptions,
  type ValidWorkflow,
  type ValidWorkflowNode,
  type WorkflowValidation,
} from './workflow/validate-workflow.js';
export {
  CORE_PROBLEM_CODES,
  PROBLEM_CODE_PATTERN,
  isProblemCode,
  type PathProblem,
  type Problem,
  type ProblemCode,
  type ProblemCodeTable,
  type QuarryProblemCodes,
} from './workflow/problems.js';
export { workflowBodySchemas, type ListingRegistryView } from './workflow/workflow-body.js';
export { workflowJsonSchema } from './workflow/json-schema.js';
export { SCHEDULE_PHRASE_LIST } from './workflow/schedule.js';
export { nodeLabel, nodePath } from './workflow/node-view.js';
export { settingKeysOf } from './workflow/setting-keys.js';
export { addCodedIssue, asRecord, isInt, oneOf, optionalInt, strictSettings, type IssueSink } from './workflow/schema-helpers.js';
export { lazySchema, zod, type ZodApi } from './workflow/zod-lib.js';

// Secrets in connector configs and URLs, masked the same way by every package.
export { SECRET_MASK, collectSecrets, maskSecrets } from './service/secrets.js';
export { decodeUrlPart, maskUrlPasswords, maskValuePasswords, valueCredentials } from './service/url-credentials.js';

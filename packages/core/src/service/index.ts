/**
 * `@quarry/core/service`: the workflow service behind the REST API (workflows, connectors, jobs,
 * schedules over a {@link Store}), its request and response schemas (the hosted API's shapes, as
 * zod schemas a server turns into OpenAPI) and the stores and clocks it runs on. Kept out of the
 * package's main entry so that a library user does not load zod schemas and croner to partition.
 */
export { WorkflowService, type JobDownload, type RunOptions as ServiceRunOptions, type WorkflowServiceOptions } from './workflow-service.js';
export { ManualClock, systemClock, type Clock, type TimerHandle } from './clock.js';
export { COLLECTIONS, type Collection, type CollectionRecords, type Store, type StoreQuery } from './store.js';
export { MemoryStore } from './memory-store.js';
export type { ConnectorKind, ConnectorRecord, JobInputFile, JobNode, JobOutputFile, JobRecord, StoredNode, StoredRecord, WorkflowRecord } from './records.js';
export type { InputFile, InputLimits } from './job-files.js';
export { SERVICE_ERROR_CODES, problemAt, requestInvalid, type ServiceErrorCode, type ServiceProblem } from './service-errors.js';
export { scrubValue } from './secrets.js';
export { urlCredentials, type UrlCredential } from './url-credentials.js';
export {
  JOB_PROCESSING_STATUSES,
  JOB_STATUSES,
  JOB_TYPES,
  WORKFLOW_STATUSES,
  cancelJobResponse,
  connectionCheck,
  connectorCreateBody,
  connectorInformation,
  connectorListQuery,
  connectorUpdateBody,
  deleteResponse,
  downloadQuery,
  jobDetails,
  jobFailedFiles,
  jobInformation,
  jobListQuery,
  onDemandRequestData,
  templateDetail,
  templateListItem,
  workflowInformation,
  workflowListQuery,
  workflowStatusField,
  type CancelJobResponse,
  type ConnectionCheck,
  type ConnectorCreateBody,
  type ConnectorInformation,
  type ConnectorListQuery,
  type ConnectorUpdateBody,
  type DeleteResponse,
  type DownloadQuery,
  type JobDetails,
  type JobFailedFiles,
  type JobInformation,
  type JobListQuery,
  type JobType,
  type OnDemandRequestData,
  type TemplateDetail,
  type TemplateListItem,
  type WorkflowInformation,
  type WorkflowListQuery,
  type WorkflowStatus,
} from './schemas.js';

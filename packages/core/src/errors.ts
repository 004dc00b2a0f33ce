/**
 * Every error quarry raises carries a stable `code`. Codes are listed once, here, with a one-line
 * description; the core README's table is checked against this list by a test.
 */
export const ERROR_CODES = {
  ARCHIVE_TOO_LARGE: 'a ZIP-based document (DOCX, PPTX, XLSX, ODT, EPUB) inflates beyond the size limits (decompression bomb guard)',
  CHUNKING_OPTIONS_INVALID: 'invalid chunking options (the reference library messages)',
  CONNECTOR_IN_USE: 'a connector cannot be deleted while a workflow uses it (409)',
  COORDINATOR_LOST: 'a distributed task of a job whose coordinator stopped sending its heartbeat (it died); the worker did not run it',
  DESTINATION_UNAVAILABLE: 'a destination cannot be prepared (missing, not a directory, unreachable)',
  DESTINATION_WRITE_FAILED: 'a destination could not write a document',
  DISTRIBUTED_JOB_INVALID: "a distributed task names a job or workflow version that Redis does not hold as stated, or lacks the coordinator's signature",
  DISTRIBUTED_KEY_MISMATCH: "a worker's shared secret does not open a distributed job's encrypted connectors",
  DISTRIBUTED_KEY_REQUIRED: 'a distributed job keeps its connectors encrypted and the worker has no shared secret',
  DOCUMENT_CRASHED: 'the process working on a document died (a native crash, an exit or an uncaught exception); only that document fails',
  DOCUMENT_READ_FAILED: 'a source document could not be read',
  DOCUMENT_TOO_COMPLEX: 'a document is past a structural limit (pages, nesting depth); the message names the limit and the variable that raises it',
  DOCUMENT_TOO_LARGE: 'a document needed more memory than its process may use (heap or resident memory limit)',
  DUPLICATE_CONNECTOR: 'a plugin registers a connector type that is already registered',
  DUPLICATE_FORMAT: 'a plugin registers a document format whose name is already registered',
  DUPLICATE_NODE: 'a plugin registers a node type/subtype that is already registered',
  DUPLICATE_PLUGIN: 'a plugin with this name is already registered',
  ELEMENT_INVALID: 'an element JSON object is malformed',
  EMBED_DIMENSIONS_MISMATCH: 'an embedding provider returned vectors whose length differs from the model registry',
  EMBED_INPUT_TOO_LONG: 'a chunk has more tokens than the embedding model accepts (nothing is truncated)',
  EMBED_MODEL_UNAVAILABLE: 'a local embedding model directory is missing, incomplete or cannot be loaded',
  ENRICHMENT_RESPONSE_INVALID: 'a model answer cannot be used (no JSON object for NER, no <table> for table-to-HTML)',
  FILETYPE_UNSUPPORTED: 'no partitioner handles the detected file type',
  FILE_EMPTY: 'a document has no bytes',
  FILE_TOO_LARGE: 'a document or a part of it is past a size limit (image pixels, line length); the message names the limit and the variable that raises it',
  FILE_UNREADABLE: 'a document exists but cannot be parsed',
  INCOMPATIBLE_PLUGIN: 'a plugin does not support this engine version',
  INPUT_TOO_LARGE: 'too many input files, or a file above the size limit (413)',
  INVALID_ARGUMENT: 'an API argument is missing or malformed',
  INVALID_PLUGIN: 'a plugin definition is malformed',
  JOB_ABORTED: 'the job was cancelled before this document finished',
  JOB_FINISHED: 'a job that already ended cannot be cancelled (409)',
  MULTIPART_INVALID: 'a multipart/form-data body is malformed: no boundary, truncated, or a part without valid headers (400)',
  NODE_FAILED: 'a node threw while processing a document',
  NODE_TIMEOUT: 'a node (or a document process) did not settle within its time limit',
  NOT_FOUND: 'no such workflow, connector, job, template or file in this workspace (404)',
  OCR_LANGUAGE_UNAVAILABLE: 'none of the requested OCR languages has data installed',
  PARTITION_API_AUTH_FAILED: 'the partition endpoint rejected the API key (401/403)',
  PARTITION_API_QUOTA_EXCEEDED: 'the partition endpoint reports the quota is used up (402)',
  PARTITION_API_REJECTED: 'the partition endpoint rejected the file or parameters (4xx)',
  PARTITION_API_UNAVAILABLE: 'the partition endpoint failed or is overloaded (5xx)',
  PDF_PASSWORD_REQUIRED: 'a PDF needs a user password to open',
  PROVIDER_AUTH: 'a provider rejected the credentials (HTTP 401/403)',
  PROVIDER_BAD_REQUEST: 'a provider rejected the request as invalid (HTTP 400/404/413/422)',
  PROVIDER_ERROR: 'a provider call failed for another reason, or answered with an unexpected shape',
  PROVIDER_NOT_CONFIGURED: 'a provider lacks a required setting (API key, endpoint, region, project)',
  PROVIDER_RATE_LIMITED: 'a provider kept answering HTTP 429 after every retry',
  PROVIDER_TIMEOUT: 'a provider call timed out on every attempt',
  PROVIDER_UNAVAILABLE: 'a provider kept answering HTTP 5xx, or could not be reached, after every retry',
  REDIS_UNAVAILABLE: 'Redis does not answer at the configured URL (distributed runs)',
  REQUEST_INVALID: 'a request body or query has problems, listed in details.problems (422)',
  SEARCH_INDEX_AUTH_FAILED: 'the search cluster rejected the credentials (the auth form is named, never the secret)',
  SEARCH_INDEX_REQUEST_FAILED: 'a search cluster request or bulk item failed',
  SEARCH_INDEX_SCHEMA_MISMATCH: 'a caller-created index mapping does not fit the records (dims, similarity)',
  SEARCH_INDEX_UNREACHABLE: 'the search cluster cannot be reached',
  SETTINGS_INVALID: 'node or connector settings do not match their schema',
  SOURCE_NOT_ADDRESSABLE: 'a source cannot re-open a document from its record, so it cannot run distributed',
  SOURCE_NOT_FOUND: 'a source location does not exist or cannot be opened',
  TASK_FAILED: 'a distributed task failed in the queue (its workers died too often, or none could run it)',
  TASK_LOST: 'a distributed task disappeared from the queue before reporting an outcome',
  UNKNOWN_CONNECTOR: 'no connector of this type is registered',
  UNKNOWN_NODE: 'no node of this type/subtype is registered',
  VLM_RESPONSE_INVALID: 'a vision model answer is not usable element JSON or HTML',
  WORKFLOW_BUSY: 'the workflow has a job scheduled or running; it never runs twice at once (409)',
  WORKFLOW_INACTIVE: 'the workflow is inactive, which blocks scheduled and manual runs (409)',
  WORKFLOW_INVALID: 'a workflow body has problems (see `problems`)',
  WORKFLOW_NOT_UPDATABLE: 'an on-demand workflow cannot be updated (409)',
} as const;

/** A stable error code string. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Options accepted by {@link QuarryError}. */
export interface QuarryErrorOptions {
  cause?: unknown;
  /** Extra structured detail safe to show to users (never secrets). */
  details?: Record<string, unknown>;
}

/**
 * Base class of every error quarry throws or records.
 *
 * @example
 * ```ts
 * try { engine.build(workflow) } catch (e) { if (isQuarryError(e)) console.log(e.code) }
 * ```
 */
export class QuarryError extends Error {
  /** Stable machine-readable code. */
  readonly code: string;
  /** Structured, non-secret detail. */
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: QuarryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'QuarryError';
    this.code = code;
    this.details = options.details ?? {};
  }

  /** A JSON-safe form: `{ code, message, details }`. */
  toJSON(): { code: string; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** True when `e` is a {@link QuarryError} (also across package copies, by shape). */
export function isQuarryError(e: unknown): e is QuarryError {
  return e instanceof QuarryError || (e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && e.name === 'QuarryError');
}

/** Creates a {@link QuarryError} with one of the core codes. */
export function quarryError(code: ErrorCode, message: string, options?: QuarryErrorOptions): QuarryError {
  return new QuarryError(code, message, options);
}

/** Renders any thrown value as a message without a stack. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e);
}

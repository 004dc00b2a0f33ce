/**
 * A package's error codes: each code (UPPER_SNAKE) with a one-line description. Every error quarry
 * raises carries a stable `code`, and each package lists the codes it throws once, in such a table
 * (core's are {@link CORE_ERROR_CODES}); its README's table is checked against it by a test, and the
 * package declares them to the type checker by augmenting {@link QuarryErrorCodes}.
 */
export type ErrorCodeTable = Readonly<Record<string, string>>;

/**
 * The codes core itself raises: the runtime, the process pool, the plugin registry, the workflow
 * service, and the connector and node failures the runtime records. Other packages own theirs.
 */
export const CORE_ERROR_CODES = {
  CONNECTOR_IN_USE: 'a connector cannot be deleted while a workflow uses it (409)',
  DESTINATION_WRITE_FAILED: 'a destination could not write a document',
  DOCUMENT_CRASHED: 'the process working on a document died (a native crash, an exit or an uncaught exception); only that document fails',
  DOCUMENT_READ_FAILED: 'a source document could not be read',
  DOCUMENT_TOO_LARGE: 'a document needed more memory than its process may use (heap or resident memory limit)',
  DUPLICATE_CONNECTOR: 'a plugin registers a connector type that is already registered',
  DUPLICATE_ERROR_CODE: 'a plugin declares an error code that core or another plugin already declares',
  DUPLICATE_FORMAT: 'a plugin registers a document format whose name is already registered',
  DUPLICATE_NODE: 'a plugin registers a node type/subtype that is already registered',
  DUPLICATE_PLUGIN: 'a plugin with this name is already registered',
  DUPLICATE_PROBLEM_CODE: 'a plugin declares a workflow problem code that core or another plugin already declares',
  DUPLICATE_TEMPLATE: 'a plugin supplies a workflow template whose id another plugin already supplies',
  ELEMENT_INVALID: 'an element JSON object is malformed',
  ENGINE_FROZEN: 'a plugin was registered after engine.build(); register every plugin before the first build',
  INCOMPATIBLE_PLUGIN: 'a plugin does not support this engine version',
  INPUT_TOO_LARGE: 'too many input files, or a file above the size limit (413)',
  INVALID_ARGUMENT: 'an API argument is missing or malformed',
  INVALID_PLUGIN: 'a plugin definition is malformed',
  JOB_ABORTED: 'the job was cancelled before this document finished',
  JOB_FINISHED: 'a job that already ended cannot be cancelled (409)',
  NODE_FAILED: 'a node threw while processing a document',
  NODE_TIMEOUT: 'a node (or a document process) did not settle within its time limit',
  NOT_FOUND: 'no such workflow, connector, job, template or file in this workspace (404)',
  REQUEST_INVALID: 'a request body or query has problems, listed in details.problems (422)',
  SETTINGS_INVALID: 'node or connector settings do not match their schema',
  UNKNOWN_CONNECTOR: 'no connector of this type is registered',
  UNKNOWN_NODE: 'no node of this type/subtype is registered',
  WORKFLOW_BUSY: 'the workflow has a job scheduled or running; it never runs twice at once (409)',
  WORKFLOW_INACTIVE: 'the workflow is inactive, which blocks scheduled and manual runs (409)',
  WORKFLOW_INVALID: 'a workflow body has problems (see `problems`)',
  WORKFLOW_NOT_UPDATABLE: 'an on-demand workflow cannot be updated (409)',
} as const satisfies ErrorCodeTable;

type CoreErrorCodes = typeof CORE_ERROR_CODES;

/**
 * Every error code the type checker knows, code -> description: core's, and those each package adds
 * beside its own table, so that `quarryError('PDF_PASSWORD_REQUIRED', ...)` typechecks wherever the
 * package declaring it is imported, and a code nobody declares does not.
 *
 * @example
 * ```ts
 * export const RTF_ERROR_CODES = { RTF_GROUP_UNBALANCED: 'an RTF group is never closed' } as const satisfies ErrorCodeTable;
 * type RtfErrorCodes = typeof RTF_ERROR_CODES;
 * declare module '@quarry/core' {
 *   interface QuarryErrorCodes extends RtfErrorCodes {}
 * }
 * ```
 */
export interface QuarryErrorCodes extends CoreErrorCodes {}

/** A declared error code (see {@link QuarryErrorCodes}). */
export type ErrorCode = keyof QuarryErrorCodes & string;

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

  constructor(code: ErrorCode, message: string, options: QuarryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'QuarryError';
    this.code = code;
    this.details = options.details ?? {};
  }

  /**
   * An error carrying a code received from elsewhere: from another process, a stored job summary, or a
   * coded error being re-worded. The code is kept as it is; new errors name a declared {@link ErrorCode}.
   */
  static from(code: string, message: string, options?: QuarryErrorOptions): QuarryError {
    return new QuarryError(code as ErrorCode, message, options);
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

/** Creates a {@link QuarryError} with a declared code. */
export function quarryError(code: ErrorCode, message: string, options?: QuarryErrorOptions): QuarryError {
  return new QuarryError(code, message, options);
}

/** Renders any thrown value as a message without a stack. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e);
}

import { CORE_ERROR_CODES, QuarryError } from '../errors.js';
import { jsonPointer } from '../plugin/settings.js';

/**
 * The core error codes the workflow service raises (`QuarryError.code`). The REST service maps each
 * to an HTTP status.
 */
export const SERVICE_ERROR_CODES = {
  CONNECTOR_IN_USE: CORE_ERROR_CODES.CONNECTOR_IN_USE,
  INPUT_TOO_LARGE: CORE_ERROR_CODES.INPUT_TOO_LARGE,
  JOB_FINISHED: CORE_ERROR_CODES.JOB_FINISHED,
  NOT_FOUND: CORE_ERROR_CODES.NOT_FOUND,
  REQUEST_INVALID: CORE_ERROR_CODES.REQUEST_INVALID,
  WORKFLOW_BUSY: CORE_ERROR_CODES.WORKFLOW_BUSY,
  WORKFLOW_INACTIVE: CORE_ERROR_CODES.WORKFLOW_INACTIVE,
  WORKFLOW_NOT_UPDATABLE: CORE_ERROR_CODES.WORKFLOW_NOT_UPDATABLE,
} as const;

/** A code of {@link SERVICE_ERROR_CODES}. */
export type ServiceErrorCode = keyof typeof SERVICE_ERROR_CODES;

/** One problem of a request: a stable code, a JSON pointer into the body or query, a message. */
export interface ServiceProblem {
  code: string;
  path: string;
  message: string;
}

/** Creates a service error. */
export function serviceError(code: ServiceErrorCode, message: string, details: Record<string, unknown> = {}): QuarryError {
  return new QuarryError(code, message, { details });
}

/** `NOT_FOUND` with the platform's wording: `Workflow <id> not found`. */
export function notFound(resource: string, id: string): QuarryError {
  return serviceError('NOT_FOUND', `${resource} ${id} not found`, { resource, id });
}

/** `REQUEST_INVALID` carrying every problem; `location` says where the paths point (body or query). */
export function requestInvalid(location: 'body' | 'query', problems: ServiceProblem[]): QuarryError {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return serviceError('REQUEST_INVALID', `invalid request ${location}: ${first ? `${first.path || '/'}: ${first.message}` : 'no detail'}${more}`, {
    location,
    problems,
  });
}

/** A problem at a path given as segments. */
export function problemAt(code: string, path: ReadonlyArray<string | number>, message: string): ServiceProblem {
  return { code, path: jsonPointer(path), message };
}

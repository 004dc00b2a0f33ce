import type { z } from 'zod';
import { toProblem } from '../workflow/problems.js';
import { zodIssuesToProblems } from '../workflow/zod-problems.js';
import { requestInvalid, type ServiceProblem } from './service-errors.js';

/** The problems of a zod parse of a request body or query, with workflow validation's codes. */
export function zodProblems(issues: readonly z.core.$ZodIssue[], input: unknown, base: ReadonlyArray<string | number> = []): ServiceProblem[] {
  return zodIssuesToProblems(issues, { base, input, noun: 'field' }).map(toProblem);
}

/** Parses `input` with `schema`; throws `REQUEST_INVALID` listing every problem. */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, location: 'body' | 'query'): z.output<S> {
  const r = schema.safeParse(input ?? {}, { reportInput: true });
  if (r.success) return r.data;
  throw requestInvalid(location, zodProblems(r.error.issues, input));
}

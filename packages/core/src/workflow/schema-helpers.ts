import type { z } from 'zod';
import type { ProblemCode } from './problems.js';
import { zod } from './zod-lib.js';

/** Renders a value for a message: strings quoted, objects by kind. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);
  return `${typeof v} ${String(v)}`;
}

/** `"a", "b", "c"` */
export function quoteList(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** An enum whose error says which values are allowed and what was given. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return zod().enum(values, { error: (iss) => `${what} must be one of ${quoteList(values)}; got ${describeValue(iss.input)}` });
}

/**
 * A settings object that rejects unknown keys, naming them and the allowed ones. (Workflow
 * validation re-words the message per key, with hints for settings of sibling subtypes.)
 */
export function strictSettings<const S extends z.ZodRawShape>(label: string, shape: S) {
  const allowed = Object.keys(shape);
  return zod().strictObject(shape, {
    error: (iss) => {
      if (iss.code === 'unrecognized_keys') {
        return `unknown setting${iss.keys.length > 1 ? 's' : ''} ${quoteList(iss.keys)} for ${label}; allowed: ${allowed.length ? allowed.join(', ') : '(none)'}`;
      }
      if (iss.code === 'invalid_type') return `${label} settings must be an object; got ${describeValue(iss.input)}`;
      return undefined;
    },
  });
}

/** The refinement context zod passes to `superRefine`. */
export type IssueSink = z.RefinementCtx;

/** Adds an issue carrying a {@link ProblemCode} in `params.code`, which workflow validation maps 1:1. */
export function addCodedIssue(ctx: IssueSink, code: ProblemCode, path: ReadonlyArray<string | number>, message: string): void {
  ctx.addIssue({ code: 'custom', message, path: [...path], params: { code } });
}

/** The value as a plain record, or an empty one (refinements may see partially parsed input). */
export function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** True for a finite integer. */
export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/** An optional integer setting ("default none": absent or null) with a JSON Schema bound for tooling. */
export function optionalInt(description: string, minimum?: number) {
  const base = zod().number().int();
  return (minimum === undefined ? base : base.meta({ minimum })).nullish().describe(description);
}

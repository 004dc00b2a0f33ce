import type { z } from 'zod';
import { isProblemCode, type BodyPath, type PathProblem, type ProblemCode } from './problems.js';
import { describeValue, quoteList } from './schema-helpers.js';

/** How to word a key the schema does not know; return undefined for the generic wording. */
export type UnknownKeyHandler = (key: string, parent: BodyPath) => { code: ProblemCode; message: string } | undefined;

/** Context for {@link zodIssuesToProblems}. */
export interface IssueMapping {
  /** Where the parsed value sits in the body. */
  base: BodyPath;
  /** The raw value that was parsed, to tell a missing key from a wrong one. */
  input: unknown;
  /** "field" or "setting", for messages. */
  noun: string;
  unknownKey?: UnknownKeyHandler;
}

function lookup(input: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = input;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, seg)) return { found: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return { found: cur !== undefined, value: cur };
}

/** zod's own messages start with "Invalid"; ours never do, and say more, so they are kept. */
const isZodDefaultMessage = (m: string): boolean => /^(Invalid|Too (small|big))\b/.test(m);

const expectedName = (e: string): string => (e === 'int' ? 'an integer' : e === 'object' || e === 'array' ? `an ${e}` : e);

/**
 * Turns zod issues into problems with stable codes. Issues raised by quarry's refinements carry
 * their code in `params.code`; zod's built-in issues map to `schema.*` codes (anything without a
 * closer code is `schema.invalid_value`). An unrecognized-keys
 * issue becomes one problem per key, pointing at that key.
 */
export function zodIssuesToProblems(issues: readonly z.core.$ZodIssue[], ctx: IssueMapping): PathProblem[] {
  const out: PathProblem[] = [];
  for (const issue of issues) {
    const rel = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const path = [...ctx.base, ...rel];
    const custom = !isZodDefaultMessage(issue.message);
    const key = rel.length ? String(rel[rel.length - 1]) : '';
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const k of issue.keys) {
          const special = ctx.unknownKey?.(k, rel);
          out.push({
            code: special?.code ?? 'schema.unknown_key',
            path: [...path, k],
            message: special?.message ?? `unknown ${ctx.noun} ${JSON.stringify(k)}`,
          });
        }
        break;
      case 'invalid_type':
      case 'invalid_value': {
        const { found, value } = lookup(ctx.input, issue.path);
        if (!found && rel.length) {
          const allowed = issue.code === 'invalid_value' ? `; allowed: ${quoteList(issue.values.map(String))}` : ` (expected ${expectedName(issue.expected)})`;
          out.push({ code: 'schema.required', path, message: custom ? issue.message : `required ${ctx.noun} ${JSON.stringify(key)} is missing${allowed}` });
        } else if (issue.code === 'invalid_type') {
          out.push({
            code: 'schema.invalid_type',
            path,
            message: custom ? issue.message : `expected ${expectedName(issue.expected)}, got ${describeValue(value)}`,
          });
        } else {
          out.push({
            code: 'schema.invalid_value',
            path,
            message: custom ? issue.message : `must be one of ${quoteList(issue.values.map(String))}; got ${describeValue(value)}`,
          });
        }
        break;
      }
      case 'too_small':
      case 'too_big': {
        const sized = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set';
        if (sized && issue.code === 'too_small') {
          const empty = Number(issue.minimum) <= 1;
          out.push({
            code: 'schema.too_short',
            path,
            message: custom
              ? issue.message
              : empty
                ? 'must not be empty'
                : `must have at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`,
          });
        } else {
          out.push({ code: 'schema.out_of_range', path, message: issue.message });
        }
        break;
      }
      case 'custom': {
        const code = issue.params?.code;
        out.push({ code: isProblemCode(code) ? code : 'schema.invalid_value', path, message: issue.message });
        break;
      }
      default:
        // invalid_format, not_multiple_of, invalid_union, invalid_key, invalid_element: a value the schema does not allow.
        out.push({ code: 'schema.invalid_value', path, message: issue.message });
    }
  }
  return out;
}

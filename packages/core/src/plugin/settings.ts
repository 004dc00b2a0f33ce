import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ZodType } from 'zod';

/** A JSON Schema object (draft-07 / 2019-09 subset understood by ajv). */
export interface JsonSchema {
  [keyword: string]: unknown;
}

/** A settings schema: a zod schema, or a JSON Schema so that plain-JS plugins work too. */
export type SettingsSchema<S> = ZodType<S> | JsonSchema;

/** One settings problem, `path` a JSON pointer relative to the settings object. */
export interface SettingsProblem {
  path: string;
  message: string;
}

/** Result of {@link parseSettings}. */
export type SettingsResult<S> = { ok: true; value: S } | { ok: false; problems: SettingsProblem[] };

function isZod(schema: unknown): schema is ZodType {
  return typeof schema === 'object' && schema !== null && typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

// ajv (a CommonJS package, so `require` gives the instance `import` would) is loaded with the first
// JSON Schema: zod-schema plugins, the built-in ones among them, never pay for it.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles a JSON Schema once (throws on an invalid schema). */
export function compileJsonSchema(schema: JsonSchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    ajv ??= new (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv({ allErrors: true, useDefaults: true, strict: false });
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/** Joins a path of keys into a JSON pointer (RFC 6901). */
export function jsonPointer(path: ReadonlyArray<string | number | symbol>): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function ajvProblem(e: ErrorObject): SettingsProblem {
  let path = e.instancePath;
  if (e.keyword === 'required') path += jsonPointer([(e.params as { missingProperty: string }).missingProperty]);
  if (e.keyword === 'additionalProperties') path += jsonPointer([(e.params as { additionalProperty: string }).additionalProperty]);
  return { path, message: e.keyword === 'additionalProperties' ? 'unknown setting' : (e.message ?? 'invalid') };
}

/** Validates `value` against a zod or JSON schema, applying defaults. Never throws on bad input. */
export function parseSettings<S>(schema: SettingsSchema<S>, value: unknown): SettingsResult<S> {
  if (isZod(schema)) {
    const r = schema.safeParse(value ?? {});
    if (r.success) return { ok: true, value: r.data as S };
    return { ok: false, problems: r.error.issues.map((i) => ({ path: jsonPointer(i.path as Array<string | number>), message: i.message })) };
  }
  const fn = compileJsonSchema(schema);
  const copy = structuredClone(value ?? {});
  if (fn(copy)) return { ok: true, value: copy as S };
  return { ok: false, problems: (fn.errors ?? []).map(ajvProblem) };
}

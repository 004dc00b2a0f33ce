import type { ZodType } from 'zod';
import type { NodeDefinition } from '../plugin/types.js';
import type { SettingsSchema } from '../plugin/settings.js';

/** True when a settings schema is a zod schema (else it is a JSON Schema). */
export function isZodSchema(schema: SettingsSchema<unknown>): schema is ZodType {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

/** The object shape under refinements, pipes (transforms) and defaults, or undefined. */
function zodShapeKeys(schema: unknown): string[] | undefined {
  let cur = schema as { shape?: Record<string, unknown>; _zod?: { def?: { in?: unknown; innerType?: unknown } } } | undefined;
  for (let depth = 0; cur && depth < 8; depth++) {
    if (cur.shape && typeof cur.shape === 'object') return Object.keys(cur.shape);
    const def = cur._zod?.def;
    cur = (def?.in ?? def?.innerType) as typeof cur;
  }
  return undefined;
}

/** A node's setting names: declared, else the keys of its zod object or JSON Schema `properties`. */
export function settingKeysOf(def: NodeDefinition<unknown>): readonly string[] {
  if (def.settingKeys) return def.settingKeys;
  if (isZodSchema(def.settings)) return zodShapeKeys(def.settings) ?? [];
  const props = (def.settings as { properties?: unknown }).properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Zod from 'zod';

let zodModule: typeof Zod | undefined;

/** zod's `z` namespace, the API {@link zod} returns. */
export type ZodApi = typeof Zod.z;

/**
 * zod, loaded when the first schema is built (a plugin's settings, a workflow to validate) rather
 * than with `@quarry/core`: its ninety-odd modules cost a start-up as long as Node's own. It is the
 * ES module build that `import 'zod'` gives, required synchronously (Node's `require` of an ES
 * module), so schemas built here and in plugins are of the same zod.
 */
export function zod(): ZodApi {
  zodModule ??= createRequire(import.meta.url)(fileURLToPath(import.meta.resolve('zod'))) as typeof Zod;
  return zodModule.z;
}

/**
 * A schema built on first use (and then kept), so that a module defining it does not load zod.
 * A node definition returns it from a `settings` getter, and the schema is built when a workflow
 * or a call is first checked.
 *
 * @example
 * ```ts
 * const upperSettings = lazySchema(() => zod().strictObject({ locale: zod().string().optional() }));
 * const upper = defineNode({ type: 'prompter', subtype: 'uppercase', get settings() { return upperSettings(); }, create });
 * ```
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

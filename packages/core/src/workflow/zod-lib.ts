import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Zod from 'zod';

let zodModule: typeof Zod | undefined;

/**
 * zod, loaded when the first schema is built (a plugin's settings, a workflow to validate) rather
 * than with `@quarry/core`: its ninety-odd modules cost a start-up as long as Node's own. It is the
 * ES module build that `import 'zod'` gives, required synchronously (Node's `require` of an ES
 * module), so schemas built here and in plugins are of the same zod.
 */
export function zod(): typeof Zod.z {
  zodModule ??= createRequire(import.meta.url)(fileURLToPath(import.meta.resolve('zod'))) as typeof Zod;
  return zodModule.z;
}

/** A schema built on first use (and then kept), so that a module defining it does not load zod. */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

import type { JsonSchema } from '../plugin/settings.js';
import { workflowBodySchemas, type ListingRegistryView } from './workflow-body.js';
import { zod } from './zod-lib.js';

/**
 * JSON Schema (draft-07, compiles with ajv) of the workflow create body, or of the update body with
 * `mode: 'update'`, for the nodes a registry holds, generated from the zod schemas. It describes
 * the input: fields with defaults are optional. Cross-field rules (ordering, template/custom, local
 * source, chunking option bounds between settings) are not expressible in it; use
 * `validateWorkflow` for those.
 *
 * @example
 * ```ts
 * writeFileSync('workflow.schema.json', JSON.stringify(workflowJsonSchema(engine.registry), null, 2));
 * ```
 */
export function workflowJsonSchema(registry: ListingRegistryView, mode: 'create' | 'update' = 'create'): JsonSchema {
  const schemas = workflowBodySchemas(registry);
  return zod().toJSONSchema(mode === 'create' ? schemas.create : schemas.update, { io: 'input', target: 'draft-07' }) as JsonSchema;
}

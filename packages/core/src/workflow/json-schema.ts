import { z } from 'zod';
import type { JsonSchema } from '../plugin/settings.js';
import { workflowCreateBody, workflowUpdateBody } from './workflow-body.js';

const cache = new Map<'create' | 'update', JsonSchema>();

/**
 * JSON Schema (draft-07, compiles with ajv) of the workflow create body, or of the update body with
 * `mode: 'update'`, generated from the zod schemas. It describes the input: fields with defaults are
 * optional. Cross-field rules (ordering, template/custom, local source, chunking option bounds
 * between settings) are not expressible in it; use `validateWorkflow` for those.
 *
 * @example
 * ```ts
 * writeFileSync('workflow.schema.json', JSON.stringify(workflowJsonSchema(), null, 2));
 * ```
 */
export function workflowJsonSchema(mode: 'create' | 'update' = 'create'): JsonSchema {
  let schema = cache.get(mode);
  if (!schema) {
    schema = z.toJSONSchema(mode === 'create' ? workflowCreateBody : workflowUpdateBody, { io: 'input', target: 'draft-07' }) as JsonSchema;
    cache.set(mode, schema);
  }
  return structuredClone(schema);
}

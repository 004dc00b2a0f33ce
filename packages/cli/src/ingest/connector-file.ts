import { parseSettings } from '@quarry/core';
import { ELASTICSEARCH_TYPE_ALIAS, SEARCH_INDEX_TYPE, searchIndexConfig, type SearchIndexConfig } from '@quarry/connectors';
import { readJsonFile } from '../read-json.js';
import { UserError } from '../user-error.js';

/** A connector create body read from a file: `{"name", "type", "config"}`. */
export interface ConnectorFile {
  name: string;
  type: string;
  config: SearchIndexConfig;
}

/** Connector types a CONNECTOR.json may name. */
export const CONNECTOR_FILE_TYPES = [SEARCH_INDEX_TYPE, ELASTICSEARCH_TYPE_ALIAS] as const;

/**
 * Reads a connector create body (the Unstructured workflow API: `name`, `type: "search_index"`, `config: {hosts,
 * index_name, search_api_key}`) and validates it with the connector's config schema. Every problem
 * is reported in one line, as a {@link UserError}: `CONNECTOR.json: /config/index_name: ...; ...`.
 */
export async function readConnectorFile(file: string): Promise<ConnectorFile> {
  const body = await readJsonFile(file);
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UserError(`${file}: expected a connector create body {"name", "type", "config"}`);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!['name', 'type', 'config'].includes(k)) problems.push(`/${k}: unknown field`);
  if (typeof b.name !== 'string' || !b.name.trim()) problems.push('/name: a non-empty string is required');
  if (!CONNECTOR_FILE_TYPES.includes(b.type as (typeof CONNECTOR_FILE_TYPES)[number])) {
    problems.push(`/type: expected "${SEARCH_INDEX_TYPE}"${b.type === undefined ? '' : `, got ${JSON.stringify(b.type)}`}`);
  }
  const parsed = parseSettings(searchIndexConfig, b.config ?? {});
  if (typeof b.config !== 'object' || b.config === null || Array.isArray(b.config)) problems.push('/config: an object is required');
  else if (!parsed.ok) for (const p of parsed.problems) problems.push(`/config${p.path}: ${p.message}`);
  if (problems.length > 0 || !parsed.ok) throw new UserError(`${file}: ${problems.join('; ')}`);
  return { name: b.name as string, type: b.type as string, config: parsed.value };
}

import { parseSettings, quarryError, Services, silentLogger, type Element, type Flow, type Logger, type NodeDefinition, type ProcessNode } from '@quarry/core';
import { BUILTIN_FORMATS } from '../partition/formats/index.js';

/** What the one-call helpers pass on to the node they run. */
export interface HelperCallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Receives the node's warnings (an OCR language without data, an unreadable page). */
  logger?: Logger;
  /** Services the node may use (a provider client, an embedding model), as in a job. */
  services?: Services;
}

/** Checks settings with a node's own schema, as a workflow does: `SETTINGS_INVALID` names each bad field. */
export function checkSettings<S>(definition: NodeDefinition<S>, settings: Record<string, unknown>): S {
  const parsed = parseSettings(definition.settings, settings);
  if (parsed.ok) return parsed.value;
  const list = parsed.problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ');
  throw quarryError('SETTINGS_INVALID', `${definition.type} node "${definition.subtype}" settings are invalid: ${list}`, {
    details: { node: `${definition.type}/${definition.subtype}`, problems: parsed.problems },
  });
}

/**
 * Runs one built-in node on one document outside a job, as a workflow would: settings checked with
 * {@link checkSettings}, the node created, called once and closed.
 */
export async function runNodeOnce<S>(
  definition: NodeDefinition<S>,
  settings: Record<string, unknown>,
  flow: Flow,
  options: HelperCallOptions,
): Promise<Element[]> {
  const parsed = checkSettings(definition, settings);
  const signal = options.signal ?? new AbortController().signal;
  const logger = options.logger ?? silentLogger;
  const ref = { name: definition.subtype, type: definition.type, subtype: definition.subtype, settings };
  const node = await definition.create(parsed, {
    node: ref,
    nodes: [ref],
    logger,
    signal,
    services: options.services ?? new Services(),
    formats: BUILTIN_FORMATS,
  });
  if (!isProcessNode(node))
    throw quarryError('INVALID_ARGUMENT', `${definition.type} node "${definition.subtype}" works across documents and cannot be called on one`);
  try {
    const result = await node.process(flow, { signal, logger, nodeName: definition.subtype });
    return Array.isArray(result) ? result : result.elements;
  } finally {
    await node.close?.();
  }
}

function isProcessNode(n: unknown): n is ProcessNode {
  return typeof (n as ProcessNode).process === 'function';
}

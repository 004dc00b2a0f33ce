import { randomUUID } from 'node:crypto';
import { errorMessage } from '../errors.js';
import { probeConnector } from './connection-check.js';
import { connectorConfigProblems, runtimeConnectorConfig } from './connector-config.js';
import { sortAndPage } from './list-page.js';
import type { ConnectorKind, ConnectorRecord } from './records.js';
import { parseRequest, zodProblems } from './request-problems.js';
import {
  connectorCreateBody,
  connectorListQuery,
  connectorUpdateBody,
  type ConnectionCheck,
  type ConnectorInformation,
  type DeleteResponse,
} from './schemas.js';
import { collectSecrets, restoreMaskedSecrets, scrubSecrets } from './secrets.js';
import type { ServiceContext } from './service-context.js';
import { notFound, problemAt, requestInvalid, serviceError, type ServiceProblem } from './service-errors.js';
import { connectorInformation } from './views.js';
import { asObject } from './workflow-input.js';

// Source and destination connectors of `WorkflowService`: create, list, get, update, delete, and
// connection checks (kept in memory until the next one).

/** The store collection of each kind of connector. */
export const CONNECTOR_COLLECTION = { source: 'sources', destination: 'destinations' } as const;
const RESOURCE = { source: 'Source', destination: 'Destination' } as const;

/** A stored connector of this workspace; `NOT_FOUND` when absent. */
export async function connectorRecord(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string): Promise<ConnectorRecord> {
  const c = await ctx.store.get(CONNECTOR_COLLECTION[kind], workspace, id);
  if (!c) throw notFound(RESOURCE[kind], id);
  return c;
}

async function nameProblems(ctx: ServiceContext, workspace: string, kind: ConnectorKind, name: string, selfId: string | undefined): Promise<ServiceProblem[]> {
  const taken = (await ctx.store.list(CONNECTOR_COLLECTION[kind], { workspace })).some((c) => c.name === name && c.id !== selfId);
  return taken ? [problemAt('name.taken', ['name'], `a ${kind} connector named ${JSON.stringify(name)} already exists; names are unique`)] : [];
}

/** See `WorkflowService.createConnector`. */
export async function createConnector(ctx: ServiceContext, workspace: string, kind: ConnectorKind, body: unknown): Promise<ConnectorInformation> {
  const parsed = connectorCreateBody.safeParse(body, { reportInput: true });
  const problems = parsed.success ? [] : zodProblems(parsed.error.issues, body);
  const raw = asObject(body) ?? {};
  const config = asObject(raw.config);
  if (typeof raw.type === 'string' && raw.type && config) problems.push(...connectorConfigProblems(ctx.engine.registry, kind, raw.type, config, ctx.local));
  if (typeof raw.name === 'string' && raw.name) problems.push(...(await nameProblems(ctx, workspace, kind, raw.name, undefined)));
  if (problems.length || !parsed.success) throw requestInvalid('body', problems);
  const now = ctx.clock.now().toISOString();
  const record: ConnectorRecord = {
    id: randomUUID(),
    workspace,
    kind,
    name: parsed.data.name,
    type: parsed.data.type,
    config: parsed.data.config,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.put(CONNECTOR_COLLECTION[kind], record);
  ctx.logger.info(`${kind} connector created`, { workspace, connector_id: record.id, type: record.type });
  return connectorInformation(record);
}

/** See `WorkflowService.listConnectors`. */
export async function listConnectors(ctx: ServiceContext, workspace: string, kind: ConnectorKind, query: unknown): Promise<ConnectorInformation[]> {
  const q = parseRequest(connectorListQuery, query, 'query');
  const rows = (await ctx.store.list(CONNECTOR_COLLECTION[kind], { workspace })).filter((c) => !q.type || c.type === q.type);
  return sortAndPage(rows, q, (c, k) => c[k]).map(connectorInformation);
}

/** See `WorkflowService.getConnector`. */
export async function getConnector(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string): Promise<ConnectorInformation> {
  return connectorInformation(await connectorRecord(ctx, workspace, kind, id));
}

/** See `WorkflowService.updateConnector`. */
export async function updateConnector(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string, body: unknown): Promise<ConnectorInformation> {
  const stored = await connectorRecord(ctx, workspace, kind, id);
  const raw = asObject(body) ?? {};
  const given = asObject(raw.config);
  const input = given ? { ...raw, config: restoreMaskedSecrets(given, stored.config) } : body;
  const parsed = connectorUpdateBody.safeParse(input, { reportInput: true });
  const problems = parsed.success ? [] : zodProblems(parsed.error.issues, input);
  const config = asObject((input as Record<string, unknown>)?.config);
  if (config) problems.push(...connectorConfigProblems(ctx.engine.registry, kind, stored.type, config, ctx.local));
  if (typeof raw.name === 'string' && raw.name && raw.name !== stored.name) problems.push(...(await nameProblems(ctx, workspace, kind, raw.name, id)));
  if (problems.length || !parsed.success) throw requestInvalid('body', problems);
  const record: ConnectorRecord = { ...stored, name: parsed.data.name ?? stored.name, config: parsed.data.config, updated_at: ctx.clock.now().toISOString() };
  await ctx.store.put(CONNECTOR_COLLECTION[kind], record);
  ctx.logger.info(`${kind} connector updated`, { workspace, connector_id: id });
  return connectorInformation(record);
}

/** See `WorkflowService.deleteConnector`. */
export async function deleteConnector(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string): Promise<DeleteResponse> {
  await connectorRecord(ctx, workspace, kind, id);
  const users = (await ctx.store.list('workflows', { workspace })).filter((w) => (kind === 'source' ? w.source_id : w.destination_id) === id);
  if (users.length) {
    throw serviceError(
      'CONNECTOR_IN_USE',
      `${kind} ${id} is used by workflow${users.length > 1 ? 's' : ''} ${users.map((w) => w.id).join(', ')}; change or delete them first`,
      { id, workflow_ids: users.map((w) => w.id) },
    );
  }
  await ctx.store.delete(CONNECTOR_COLLECTION[kind], workspace, id);
  ctx.logger.info(`${kind} connector deleted`, { workspace, connector_id: id });
  return { id, deleted: true };
}

const checkKey = (workspace: string, kind: ConnectorKind, id: string): string => `${workspace}\u0000${kind}\u0000${id}`;

/** See `WorkflowService.checkConnection`. */
export async function checkConnection(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string, timeoutMs: number): Promise<ConnectionCheck> {
  const rec = await connectorRecord(ctx, workspace, kind, id);
  const check: ConnectionCheck = { id: randomUUID(), status: 'SCHEDULED', created_at: ctx.clock.now().toISOString() };
  ctx.checks.set(checkKey(workspace, kind, id), check);
  try {
    await probeConnector(ctx.engine, kind, rec.type, runtimeConnectorConfig(rec.type, rec.config, workspace, ctx.local), ctx.logger, timeoutMs);
    check.status = 'SUCCESS';
  } catch (e) {
    check.status = 'FAILURE';
    check.reason = scrubSecrets(errorMessage(e), collectSecrets(rec.config));
  }
  check.reported_at = ctx.clock.now().toISOString();
  return { ...check };
}

/** See `WorkflowService.getConnectionCheck`. */
export async function getConnectionCheck(ctx: ServiceContext, workspace: string, kind: ConnectorKind, id: string): Promise<ConnectionCheck> {
  await connectorRecord(ctx, workspace, kind, id);
  const check = ctx.checks.get(checkKey(workspace, kind, id));
  if (!check) throw serviceError('NOT_FOUND', `no connection check of ${kind} ${id} yet; POST one first`, { id });
  return { ...check };
}

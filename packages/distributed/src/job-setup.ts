import { quarryError, type ConnectorSpec, type Engine, type JobShell, type Logger, type Plan, type SourceConnector } from '@quarry/core';
import type { Redis } from 'ioredis';
import { startHeartbeat } from './heartbeat.js';
import { HEARTBEAT_TTL_MS, RECORD_TTL_S, type JobEntry, type QueueKeys } from './keys.js';
import { DISTRIBUTED_KEY_ENV, holdsSecrets, sealJobSpec } from './sealed-connectors.js';
import type { JobSpec, WorkflowRecord } from './task.js';
import { pipelineOf, workflowVersion } from './workflow-version.js';

/** What a coordinator opened for its job and closes when it ends. */
export interface JobResources {
  source?: SourceConnector;
  stopHeartbeat?: () => void;
}

/** What {@link publishJob} reads of `runDistributed`'s options (documented there). */
export interface JobSetupOptions {
  source: ConnectorSpec;
  destination?: ConnectorSpec | ConnectorSpec[];
  workflowId?: string;
  stallWarningMs?: number;
  nodeTimeoutMs?: number;
  secret?: string;
  heartbeatTtlMs?: number;
}

/** A job published in Redis: the source it lists, and what its tasks carry. */
export interface PublishedJob {
  source: SourceConnector;
  workflowId: string;
  version: string;
  /** Signs each task when the job has a secret. */
  taskKey: Buffer | undefined;
}

/**
 * Opens the source (it must re-open a document from its record), prepares the destinations once
 * (so workers find the index or directory there), then publishes the job in Redis: its workflow
 * version, the coordinator's heartbeat, its entry among the queue's jobs and its spec (sealed with
 * the secret, if any). What it opens goes in `resources`, closed by the caller even when this fails.
 */
export async function publishJob(
  engine: Engine,
  plan: Plan,
  options: JobSetupOptions,
  ctx: { shell: JobShell; logger: Logger; redis: Redis; keys: QueueKeys; resources: JobResources },
): Promise<PublishedJob> {
  const { shell, logger, redis, keys, resources } = ctx;
  const { id, signal } = shell;
  const destinations = options.destination === undefined ? [] : Array.isArray(options.destination) ? options.destination : [options.destination];
  const workflow = pipelineOf(plan);
  const version = workflowVersion(workflow);
  const workflowId = options.workflowId ?? plan.name;
  const spec: JobSpec = {
    job_id: id,
    workflow_id: workflowId,
    workflow_version: version,
    source: options.source,
    destinations,
    stall_warning_ms: options.stallWarningMs ?? 60_000,
    node_timeout_ms: options.nodeTimeoutMs ?? 600_000,
  };
  const connectorCtx = { logger, signal };
  const source = await engine.createSource(options.source, connectorCtx);
  resources.source = source;
  if (!source.get) {
    throw quarryError('SOURCE_NOT_ADDRESSABLE', `source "${options.source.type}" cannot re-open a document from its record, so it cannot run distributed`, {
      details: { source: options.source.type },
    });
  }
  const prepared = await Promise.all(destinations.map((d) => engine.createDestination(d, connectorCtx)));
  try {
    await Promise.all(
      prepared.map((d) => d.prepare?.({ nodes: plan.nodes, ...(plan.embeddingDimensions ? { embeddingDimensions: plan.embeddingDimensions } : {}) })),
    );
  } finally {
    await Promise.allSettled(prepared.map((d) => d.close?.()));
  }
  const record: WorkflowRecord = { workflow };
  await redis.set(keys.workflow(workflowId, version), JSON.stringify(record), 'EX', RECORD_TTL_S);
  if (!options.secret && holdsSecrets(spec)) {
    logger.warn(
      `connector credentials are kept in Redis in clear while the job runs; give the coordinator and its workers a shared secret (${DISTRIBUTED_KEY_ENV}) to encrypt them`,
      { job_id: id },
    );
  }
  const { stored, taskKey } = await sealJobSpec(spec, options.secret);
  // The heartbeat exists before the spec does: a worker never finds the spec without it while this runs.
  const ttl = Math.max(300, options.heartbeatTtlMs ?? HEARTBEAT_TTL_MS);
  resources.stopHeartbeat = await startHeartbeat(redis, keys.alive(id), ttl, logger);
  const entry: JobEntry = { workflow_id: workflowId, started_at: new Date().toISOString() };
  await redis.hset(keys.jobs, id, JSON.stringify(entry));
  await redis.set(keys.spec(id), JSON.stringify(stored), 'EX', RECORD_TTL_S);
  return { source, workflowId, version, taskKey };
}

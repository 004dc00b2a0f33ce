import { from, lastValueFrom, map, mergeMap, type Observable } from 'rxjs';
import { isQuarryError } from '../errors.js';
import type { Plan } from '../plan/plan.js';
import type { DestinationConnector, Logger, NodeInstance, PlanInfo, SourceConnector } from '../plugin/types.js';
import { DocumentSignals, failureOf, type DocumentItem } from './document-item.js';
import type { Job, JobSummary } from './events.js';
import { createJobShell, type JobShell } from './job-shell.js';
import { nodeStage, type StageContext } from './node-stages.js';
import { NodeWatchdog } from './node-watchdog.js';
import { pullSource, type PulledStream } from './pull-source.js';
import { isUnchanged, type StateStore } from './state-store.js';
import { WriteBehindWindow, writeBehindOf } from './write-behind.js';

/** Everything {@link runJob} needs, already resolved to instances. */
export interface JobDeps {
  plan: Plan;
  /** Creates the source; called once the job starts. */
  source: (signal: AbortSignal) => Promise<SourceConnector>;
  /** Creates the destinations (zero or more: one flow can go to several). */
  destinations: (signal: AbortSignal) => Promise<DestinationConnector[]>;
  /** Creates the node instances in plan order. */
  nodes: (signal: AbortSignal) => Promise<NodeInstance[]>;
  concurrency: number;
  reprocessAll: boolean;
  state?: StateStore;
  signal?: AbortSignal;
  logger: Logger;
  /** Report a node call running longer than this (ms). */
  stallWarningMs: number;
  /** Fail a node call running longer than this (ms); 0 disables. */
  nodeTimeoutMs: number;
  /** Other writers share the destinations (see `RunOptions.sharedDestinations`). */
  sharedDestinations?: boolean;
}

/** One running job: what its steps share. */
interface JobRun {
  deps: JobDeps;
  shell: JobShell;
  stages: StageContext;
}

/** The connectors and nodes a job opened, closed when it ends whether or not all of them opened. */
interface Opened {
  source?: SourceConnector;
  destinations: DestinationConnector[];
  nodes: NodeInstance[];
}

/**
 * Runs a plan: pulls documents lazily from the source with at most `concurrency` in flight, passes
 * each through the nodes, writes it to every destination, and reports events and a summary. One
 * failing document is recorded and the job goes on; cancellation ends the job STOPPED with no
 * document half-written (writes are per-document atomic and none starts after the abort).
 */
export function runJob(deps: JobDeps): Job {
  const shell = createJobShell(deps.plan.nodes, deps.signal);
  return shell.handle(executeJob(shell, deps));
}

/** Runs a job whose shell is made (see {@link runJob}); resolves with its summary, never rejects. */
export function executeJob(shell: JobShell, deps: JobDeps): Promise<JobSummary> {
  const { logger, stallWarningMs, nodeTimeoutMs } = deps;
  const watchdog = new NodeWatchdog({
    stallWarningMs,
    nodeTimeoutMs,
    onStall: (item, node, ms) => {
      shell.emit({ type: 'node_stalled', record_id: item.doc.record_id, node, ms: Math.round(ms) });
      logger.warn('node is taking long', { node, record_id: item.doc.record_id, ms: Math.round(ms) });
    },
  });
  const stages: StageContext = {
    jobId: shell.id,
    signal: shell.signal,
    stats: shell.stats,
    emit: shell.emit,
    logger,
    stallWarningMs,
    signals: new DocumentSignals(shell.signal),
    watchdog,
  };
  return execute({ deps, shell, stages });
}

/** Opens the source, destinations and nodes, streams the documents through them, and closes whatever opened. */
async function execute(run: JobRun): Promise<JobSummary> {
  const { deps, shell } = run;
  // Yield once so that callers can subscribe to events$ before the first event.
  await new Promise<void>((r) => setImmediate(r));
  const opened: Opened = { destinations: [], nodes: [] };
  try {
    const source = (opened.source = await deps.source(shell.signal));
    opened.destinations = await deps.destinations(shell.signal);
    opened.nodes = await deps.nodes(shell.signal);
    await prepareDestinations(deps, opened.destinations);
    shell.announce(source.count ? await source.count(shell.signal).catch(() => undefined) : undefined);
    const pulled = pullDocuments(run, source);
    const processed$ = throughNodes(run, opened.nodes, pulled.items$);
    const window = new WriteBehindWindow(writeBehindOf(opened.destinations));
    await lastValueFrom(processed$.pipe(mergeMap((item) => from(finishDocument(run, item, opened.destinations, window, () => pulled.release())))), {
      defaultValue: undefined,
    });
  } catch (e) {
    shell.fail(e, deps.logger);
  } finally {
    run.stages.watchdog.stop();
    await Promise.allSettled([...opened.nodes.map((n) => n.close?.()), ...opened.destinations.map((d) => d.close?.()), opened.source?.close?.()]);
  }
  return shell.finish();
}

/** Lets each destination set itself up (an index, a directory) before the first write. */
async function prepareDestinations(deps: JobDeps, destinations: readonly DestinationConnector[]): Promise<void> {
  const planInfo: PlanInfo = {
    nodes: deps.plan.nodes,
    ...(deps.plan.embeddingDimensions ? { embeddingDimensions: deps.plan.embeddingDimensions } : {}),
    ...(deps.sharedDestinations ? { sharedWriters: true } : {}),
  };
  await Promise.all(destinations.map((d) => d.prepare?.(planInfo)));
}

/** The source's documents, pulled only while a slot is free; unchanged ones are counted skipped and never take one. */
function pullDocuments(run: JobRun, source: SourceConnector): PulledStream<DocumentItem> {
  const { deps, shell } = run;
  const pulled = pullSource(source.list(shell.signal), Math.max(1, deps.concurrency), shell.signal, async (doc) => {
    shell.counts.total++;
    if (!deps.reprocessAll && (await isUnchanged(deps.state, doc))) {
      shell.endDocument({ type: 'document_skipped', record_id: doc.record_id, filename: doc.filename, version: doc.version }, deps.logger);
      return false;
    }
    shell.emit({ type: 'document_started', record_id: doc.record_id, filename: doc.filename });
    return true;
  });
  const items$ = pulled.items$.pipe(
    map((doc): DocumentItem => {
      const item: DocumentItem = { doc, elements: [], started: performance.now() };
      run.stages.signals.add(item);
      return item;
    }),
  );
  return { items$, release: () => pulled.release() };
}

/** Chains the stage of every node in plan order. */
function throughNodes(run: JobRun, instances: readonly NodeInstance[], items$: Observable<DocumentItem>): Observable<DocumentItem> {
  return run.deps.plan.nodes.reduce((stream$, node, i) => stream$.pipe(nodeStage(run.stages, node, i, instances[i]!)), items$);
}

/**
 * Writes a document that came through the nodes (in the write-behind window), or takes a failed or
 * stopped one as it is, then counts how it ended. `release` hands its pull slot on.
 */
async function finishDocument(
  run: JobRun,
  item: DocumentItem,
  destinations: readonly DestinationConnector[],
  window: WriteBehindWindow,
  release: () => void,
): Promise<void> {
  try {
    if (!item.failure && !item.stopped && run.shell.signal.aborted) item.stopped = true;
    if (item.failure || item.stopped) {
      try {
        await countDocument(run, item);
      } finally {
        release();
      }
      return;
    }
    await window.run(async () => {
      await writeDocument(item, destinations, run.shell.signal);
      await countDocument(run, item);
    }, release);
  } finally {
    run.stages.signals.delete(item);
  }
}

/** Writes to every destination in turn; the first write that fails fails the document. */
async function writeDocument(item: DocumentItem, destinations: readonly DestinationConnector[], signal: AbortSignal): Promise<void> {
  for (const [i, d] of destinations.entries()) {
    try {
      await d.write({ document: item.doc, elements: item.elements }, { signal });
    } catch (e) {
      // A write cut short by cancelling the job stops the document, as a node call cut short does.
      if (signal.aborted) {
        item.stopped = true;
        return;
      }
      item.failure = {
        ...failureOf(item.doc, destinations.length > 1 ? `destination#${i}` : 'destination', e),
        code: isQuarryError(e) ? e.code : 'DESTINATION_WRITE_FAILED',
      };
      return;
    }
  }
}

/** Counts how the document ended; a written version is recorded first, so the next incremental run skips it. */
async function countDocument(run: JobRun, item: DocumentItem): Promise<void> {
  const { deps, shell } = run;
  const { doc } = item;
  if (item.failure) shell.endDocument({ type: 'document_failed', ...item.failure }, deps.logger);
  else if (item.stopped) shell.endDocument({ type: 'document_stopped', record_id: doc.record_id, filename: doc.filename }, deps.logger);
  else {
    if (deps.state && doc.version !== undefined) await deps.state.set(doc.record_id, doc.version);
    shell.endDocument(
      {
        type: 'document_written',
        record_id: doc.record_id,
        filename: doc.filename,
        elements: item.elements.length,
        ms: Math.round(performance.now() - item.started),
      },
      deps.logger,
    );
  }
}

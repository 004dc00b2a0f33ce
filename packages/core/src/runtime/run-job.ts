import diagnostics from 'node:diagnostics_channel';
import { connect, filter, from, lastValueFrom, map, merge, mergeMap, Observable, type OperatorFunction } from 'rxjs';
import { errorMessage, isQuarryError, QuarryError } from '../errors.js';
import type { Element } from '../element/types.js';
import type { Plan, PlanNode } from '../plan/plan.js';
import {
  isFailedFlow,
  type DestinationConnector,
  type Flow,
  type FlowResult,
  type Logger,
  type NodeInstance,
  type OperatorNode,
  type PlanInfo,
  type ProcessNode,
  type SourceConnector,
  type SourceDocument,
} from '../plugin/types.js';
import type { DocumentFailure, Job, JobSummary } from './events.js';
import { createJobShell } from './job-shell.js';
import { pullSource } from './pull-source.js';
import type { StateStore } from './state-store.js';

/** Tracing channel: one message per node call, free when nobody subscribes. */
export const nodeChannel = diagnostics.channel('quarry:node');

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

interface Item {
  doc: SourceDocument;
  elements: Element[];
  started: number;
  failure?: DocumentFailure;
  stopped?: boolean;
  /** Created on first use: aborting it cancels this document's node calls only. */
  controller?: AbortController;
}

/** A node call the watchdog is watching. */
interface Watched {
  item: Item;
  node: string;
  t0: number;
  warned: boolean;
  timeout: (err: Error) => void;
}

function isOperatorNode(n: NodeInstance): n is OperatorNode {
  return typeof (n as OperatorNode).operator === 'function';
}

function failureOf(doc: SourceDocument, node: string, e: unknown): DocumentFailure {
  const code = isQuarryError(e) ? e.code : 'NODE_FAILED';
  return { record_id: doc.record_id, filename: doc.filename, node, code, message: errorMessage(e) };
}

function asElements(result: Element[] | Flow): Element[] {
  return Array.isArray(result) ? result : result.elements;
}

/**
 * Runs a plan: pulls documents lazily from the source with at most `concurrency` in flight, passes
 * each through the nodes, writes it to every destination, and reports events and a summary. One
 * failing document is recorded and the job goes on; cancellation ends the job STOPPED with no
 * document half-written (writes are per-document atomic and none starts after the abort).
 */
export function runJob(deps: JobDeps): Job {
  const shell = createJobShell(deps.plan.nodes, deps.signal);
  const { id, signal, emit, stats, counts, failures, announce } = shell;

  const fail = (item: Item, f: DocumentFailure): Item => {
    item.failure = f;
    return item;
  };

  // One AbortController per document, made only when a node asks for the signal: a controller per
  // node call (and a timer pair per call) was the largest per-document cost of the engine.
  const live = new Set<Item>();
  const docSignal = (item: Item): AbortSignal => {
    if (!item.controller) {
      item.controller = new AbortController();
      if (signal.aborted) item.controller.abort(signal.reason);
    }
    return item.controller.signal;
  };
  signal.addEventListener('abort', () => {
    for (const item of live) item.controller?.abort(signal.reason);
  }, { once: true });

  // One watchdog per job instead of timers per call: it reports stalls and enforces the timeout.
  const watched = new Set<Watched>();
  const watchdogEvery = Math.max(10, Math.min(1000, Math.floor(Math.min(deps.stallWarningMs, deps.nodeTimeoutMs || Infinity) / 4)));
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const w of watched) {
      const ms = now - w.t0;
      if (!w.warned && ms > deps.stallWarningMs) {
        w.warned = true;
        emit({ type: 'node_stalled', record_id: w.item.doc.record_id, node: w.node, ms: Math.round(ms) });
        deps.logger.warn('node is taking long', { node: w.node, record_id: w.item.doc.record_id, ms: Math.round(ms) });
      }
      if (deps.nodeTimeoutMs > 0 && ms > deps.nodeTimeoutMs) {
        watched.delete(w);
        const err = new QuarryError('NODE_TIMEOUT', `node "${w.node}" did not finish "${w.item.doc.record_id}" within ${deps.nodeTimeoutMs} ms`);
        w.item.controller?.abort(err);
        w.timeout(err);
      }
    }
  }, watchdogEvery);
  watchdog.unref();

  /** Runs one plain node on one document, watched by the job's watchdog. */
  async function runProcess(node: PlanNode, index: number, inst: ProcessNode, item: Item): Promise<Item> {
    if (item.failure || item.stopped) return item;
    if (signal.aborted) return Object.assign(item, { stopped: true });
    const t0 = performance.now();
    let w: Watched | undefined;
    try {
      const ctx = { get signal() { return docSignal(item); }, logger: deps.logger, nodeName: node.name };
      const result = await new Promise<Element[] | Flow>((resolve, reject) => {
        w = { item, node: node.name, t0, warned: false, timeout: reject };
        watched.add(w);
        Promise.resolve()
          .then(() => inst.process({ document: item.doc, elements: item.elements }, ctx))
          .then(resolve, reject);
      });
      const ms = performance.now() - t0;
      item.elements = asElements(result);
      stats[index]!.success++;
      stats[index]!.ms += ms;
      emit({ type: 'node_finished', record_id: item.doc.record_id, node: node.name, ms: Math.round(ms), elements: item.elements.length });
      if (nodeChannel.hasSubscribers) nodeChannel.publish({ job_id: id, node: node.name, record_id: item.doc.record_id, ms });
      return item;
    } catch (e) {
      if (signal.aborted) return Object.assign(item, { stopped: true });
      stats[index]!.failure++;
      stats[index]!.ms += performance.now() - t0;
      if (nodeChannel.hasSubscribers) nodeChannel.publish({ job_id: id, node: node.name, record_id: item.doc.record_id, error: e });
      return fail(item, failureOf(item.doc, node.name, e));
    } finally {
      if (w) watched.delete(w);
    }
  }

  /** Lifts an operator node: failed/stopped items bypass it, its results are matched back to items. */
  function operatorStage(node: PlanNode, index: number, inst: OperatorNode): OperatorFunction<Item, Item> {
    return connect((shared$: Observable<Item>) => {
      const byDoc = new Map<SourceDocument, { item: Item; t0: number; warned: boolean }>();
      const bypass$ = shared$.pipe(filter((i) => !!(i.failure || i.stopped)));
      const watchdog = setInterval(() => {
        const now = performance.now();
        for (const entry of byDoc.values()) {
          if (!entry.warned && now - entry.t0 > deps.stallWarningMs) {
            entry.warned = true;
            emit({ type: 'node_stalled', record_id: entry.item.doc.record_id, node: node.name, ms: Math.round(now - entry.t0) });
          }
        }
      }, Math.max(10, Math.min(1000, deps.stallWarningMs / 2)));
      watchdog.unref();
      const entering$ = shared$.pipe(
        filter((i) => !(i.failure || i.stopped)),
        map((item): Flow => {
          byDoc.set(item.doc, { item, t0: performance.now(), warned: false });
          return { document: item.doc, elements: item.elements };
        }),
      );
      const out$ = entering$.pipe(
        inst.operator({ signal, logger: deps.logger, nodeName: node.name }),
        map((r: FlowResult): Item | undefined => {
          const entry = byDoc.get(r.document);
          if (!entry) {
            deps.logger.warn('operator node emitted a document it was not given', { node: node.name, record_id: r.document.record_id });
            return undefined;
          }
          byDoc.delete(r.document);
          const ms = performance.now() - entry.t0;
          stats[index]!.ms += ms;
          if (isFailedFlow(r)) {
            if (signal.aborted) return Object.assign(entry.item, { stopped: true });
            stats[index]!.failure++;
            return fail(entry.item, failureOf(entry.item.doc, r.node ?? node.name, r.error));
          }
          stats[index]!.success++;
          entry.item.elements = r.elements;
          emit({ type: 'node_finished', record_id: r.document.record_id, node: node.name, ms: Math.round(ms), elements: r.elements.length });
          return entry.item;
        }),
        filter((i): i is Item => i !== undefined),
      );
      return new Observable<Item>((sub) => {
        const s = merge(bypass$, out$).subscribe(sub);
        return () => {
          clearInterval(watchdog);
          s.unsubscribe();
        };
      });
    });
  }

  // Documents writing behind: their pull slots were handed on while their writes run.
  let behind = 0;
  // Documents writing while holding their pull slot (the window was full when they came; at most
  // `concurrency` of them), oldest first: when a write behind ends, the oldest of them takes its
  // place and hands its slot on, so the window slides instead of waiting for their writes.
  const holding: Array<() => void> = [];

  async function finish(item: Item, destinations: DestinationConnector[], writeBehind: number, release: () => void): Promise<void> {
    let released = false;
    let wroteBehind = false;
    const goBehind = (): void => {
      behind++;
      wroteBehind = true;
      released = true;
      release();
    };
    let holds = false;
    try {
      const { doc } = item;
      if (!item.failure && !item.stopped && signal.aborted) item.stopped = true;
      if (!item.failure && !item.stopped) {
        if (behind < writeBehind) goBehind();
        else if (writeBehind > 0) {
          holds = true;
          holding.push(goBehind);
        }
        for (const [i, d] of destinations.entries()) {
          try {
            await d.write({ document: doc, elements: item.elements }, { signal });
          } catch (e) {
            fail(item, { ...failureOf(doc, destinations.length > 1 ? `destination#${i}` : 'destination', e), code: isQuarryError(e) ? e.code : 'DESTINATION_WRITE_FAILED' });
            break;
          }
        }
      }
      if (item.failure) {
        counts.failed++;
        failures.push(item.failure);
        emit({ type: 'document_failed', ...item.failure });
        deps.logger.warn('document failed', { ...item.failure });
      } else if (item.stopped) {
        counts.stopped++;
        emit({ type: 'document_stopped', record_id: doc.record_id, filename: doc.filename });
      } else {
        if (deps.state && doc.version !== undefined) await deps.state.set(doc.record_id, doc.version);
        counts.written++;
        counts.elements += item.elements.length;
        emit({ type: 'document_written', record_id: doc.record_id, filename: doc.filename, elements: item.elements.length, ms: Math.round(performance.now() - item.started) });
      }
    } finally {
      if (holds && !wroteBehind) holding.splice(holding.indexOf(goBehind), 1);
      if (wroteBehind) {
        behind--;
        holding.shift()?.();
      }
      live.delete(item);
      if (!released) release();
    }
  }

  async function execute(): Promise<JobSummary> {
    // Yield once so that callers can subscribe to events$ before the first event.
    await new Promise<void>((r) => setImmediate(r));
    let source: SourceConnector | undefined;
    let destinations: DestinationConnector[] = [];
    let instances: NodeInstance[] = [];
    try {
      source = await deps.source(signal);
      destinations = await deps.destinations(signal);
      instances = await deps.nodes(signal);
      const planInfo: PlanInfo = {
        nodes: deps.plan.nodes,
        ...(deps.plan.embeddingDimensions ? { embeddingDimensions: deps.plan.embeddingDimensions } : {}),
        ...(deps.sharedDestinations ? { sharedWriters: true } : {}),
      };
      await Promise.all(destinations.map((d) => d.prepare?.(planInfo)));
      const total = source.count ? await source.count(signal).catch(() => undefined) : undefined;
      announce(total);
      const pulled = pullSource(source.list(signal), Math.max(1, deps.concurrency), signal, async (doc) => {
        counts.total++;
        if (!deps.reprocessAll && deps.state && doc.version !== undefined && (await deps.state.get(doc.record_id)) === doc.version) {
          counts.skipped++;
          emit({ type: 'document_skipped', record_id: doc.record_id, filename: doc.filename, version: doc.version });
          return false;
        }
        emit({ type: 'document_started', record_id: doc.record_id, filename: doc.filename });
        return true;
      });
      let stream$: Observable<Item> = pulled.items$.pipe(
        map((doc): Item => {
          const item: Item = { doc, elements: [], started: performance.now() };
          live.add(item);
          return item;
        }),
      );
      deps.plan.nodes.forEach((node, i) => {
        const inst = instances[i]!;
        stream$ = isOperatorNode(inst)
          ? stream$.pipe(operatorStage(node, i, inst))
          : stream$.pipe(mergeMap((item) => from(runProcess(node, i, inst, item))));
      });
      // The smallest window of the destinations: every one of them must take the extra writes.
      const writeBehind = destinations.length === 0 ? 0 : Math.min(...destinations.map((d) => Math.max(0, Math.floor(d.writeBehind ?? 0))));
      await lastValueFrom(stream$.pipe(mergeMap((item) => from(finish(item, destinations, writeBehind, () => pulled.release())))), { defaultValue: undefined });
    } catch (e) {
      shell.fail(e, deps.logger);
    } finally {
      clearInterval(watchdog);
      await Promise.allSettled([...instances.map((n) => n.close?.()), ...destinations.map((d) => d.close?.()), source?.close?.()]);
    }
    return shell.finish();
  }

  const done = execute();
  return shell.handle(done);
}

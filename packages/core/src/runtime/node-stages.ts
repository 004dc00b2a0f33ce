import diagnostics from 'node:diagnostics_channel';
import { connect, filter, from, map, merge, mergeMap, Observable, type OperatorFunction } from 'rxjs';
import type { Element } from '../element/types.js';
import type { PlanNode } from '../plan/plan.js';
import { isFailedFlow, type Flow, type FlowResult, type Logger, type NodeInstance, type OperatorNode, type ProcessNode } from '../plugin/types.js';
import { failureOf, type DocumentItem, type DocumentSignals } from './document-item.js';
import type { JobEvent, NodeStats } from './events.js';
import type { NodeWatchdog } from './node-watchdog.js';

/** Tracing channel: one message per node call, free when nobody subscribes. */
export const nodeChannel = diagnostics.channel('quarry:node');

/** What the node stages of one job share. */
export interface StageContext {
  jobId: string;
  /** The job's cancel signal. */
  signal: AbortSignal;
  /** Per-node counters, in plan order. */
  stats: NodeStats[];
  emit(e: JobEvent): void;
  logger: Logger;
  stallWarningMs: number;
  signals: DocumentSignals;
  watchdog: NodeWatchdog;
}

/** The stage of one node: failed and stopped documents pass by it; the others come out with its elements or its failure. */
export function nodeStage(ctx: StageContext, node: PlanNode, index: number, inst: NodeInstance): OperatorFunction<DocumentItem, DocumentItem> {
  return isOperatorNode(inst) ? operatorStage(ctx, node, index, inst) : mergeMap((item) => from(runProcess(ctx, node, index, inst, item)));
}

function isOperatorNode(n: NodeInstance): n is OperatorNode {
  return typeof (n as OperatorNode).operator === 'function';
}

function asElements(result: Element[] | Flow): Element[] {
  return Array.isArray(result) ? result : result.elements;
}

/** Runs one plain node on one document, watched by the job's watchdog. */
async function runProcess(ctx: StageContext, node: PlanNode, index: number, inst: ProcessNode, item: DocumentItem): Promise<DocumentItem> {
  if (item.failure || item.stopped) return item;
  if (ctx.signal.aborted) return Object.assign(item, { stopped: true });
  const stats = ctx.stats[index]!;
  const t0 = performance.now();
  try {
    const nodeCtx = {
      get signal() {
        return ctx.signals.signalOf(item);
      },
      logger: documentLogger(ctx, item, node.name),
      nodeName: node.name,
    };
    const result = await ctx.watchdog.watch(item, node.name, () => inst.process({ document: item.doc, elements: item.elements }, nodeCtx));
    const ms = performance.now() - t0;
    item.elements = asElements(result);
    stats.success++;
    stats.ms += ms;
    ctx.emit({ type: 'node_finished', record_id: item.doc.record_id, node: node.name, ms: Math.round(ms), elements: item.elements.length });
    if (nodeChannel.hasSubscribers) nodeChannel.publish({ job_id: ctx.jobId, node: node.name, record_id: item.doc.record_id, ms });
    return item;
  } catch (e) {
    if (ctx.signal.aborted) return Object.assign(item, { stopped: true });
    stats.failure++;
    stats.ms += performance.now() - t0;
    if (nodeChannel.hasSubscribers) nodeChannel.publish({ job_id: ctx.jobId, node: node.name, record_id: item.doc.record_id, error: e });
    item.failure = failureOf(item.doc, node.name, e);
    return item;
  }
}

/**
 * The logger a node gets for one document: the job's, with the document and node in the fields; a
 * warning is also a `document_warning` event, so it reaches the job's events and summary rather
 * than only a log nobody reads.
 */
function documentLogger(ctx: StageContext, item: DocumentItem, node: string): Logger {
  const where = { record_id: item.doc.record_id, node };
  return {
    debug: (m, f) => ctx.logger.debug(m, { ...f, ...where }),
    info: (m, f) => ctx.logger.info(m, { ...f, ...where }),
    warn: (m, f) => {
      ctx.logger.warn(m, { ...f, ...where });
      ctx.emit({ type: 'document_warning', ...where, filename: item.doc.filename, message: m, ...(f && Object.keys(f).length > 0 ? { details: f } : {}) });
    },
    error: (m, f) => ctx.logger.error(m, { ...f, ...where }),
  };
}

/** Lifts an operator node: failed/stopped items bypass it, its results are matched back to items. */
function operatorStage(ctx: StageContext, node: PlanNode, index: number, inst: OperatorNode): OperatorFunction<DocumentItem, DocumentItem> {
  const stats = ctx.stats[index]!;
  return connect((shared$: Observable<DocumentItem>) => {
    const byDoc = new Map<DocumentItem['doc'], { item: DocumentItem; t0: number; warned: boolean }>();
    const bypass$ = shared$.pipe(filter((i) => !!(i.failure || i.stopped)));
    // Stall reports only: the operator owns its calls, so there is no one call here to time out.
    const watchdog = setInterval(
      () => {
        const now = performance.now();
        for (const entry of byDoc.values()) {
          if (!entry.warned && now - entry.t0 > ctx.stallWarningMs) {
            entry.warned = true;
            ctx.emit({ type: 'node_stalled', record_id: entry.item.doc.record_id, node: node.name, ms: Math.round(now - entry.t0) });
          }
        }
      },
      Math.max(10, Math.min(1000, ctx.stallWarningMs / 2)),
    );
    watchdog.unref();
    const entering$ = shared$.pipe(
      filter((i) => !(i.failure || i.stopped)),
      map((item): Flow => {
        byDoc.set(item.doc, { item, t0: performance.now(), warned: false });
        return { document: item.doc, elements: item.elements };
      }),
    );
    const out$ = entering$.pipe(
      inst.operator({ signal: ctx.signal, logger: ctx.logger, nodeName: node.name }),
      map((r: FlowResult): DocumentItem | undefined => {
        const entry = byDoc.get(r.document);
        if (!entry) {
          ctx.logger.warn('operator node emitted a document it was not given', { node: node.name, record_id: r.document.record_id });
          return undefined;
        }
        byDoc.delete(r.document);
        const ms = performance.now() - entry.t0;
        stats.ms += ms;
        if (isFailedFlow(r)) {
          if (ctx.signal.aborted) return Object.assign(entry.item, { stopped: true });
          stats.failure++;
          entry.item.failure = failureOf(entry.item.doc, r.node ?? node.name, r.error);
          return entry.item;
        }
        stats.success++;
        entry.item.elements = r.elements;
        ctx.emit({ type: 'node_finished', record_id: r.document.record_id, node: node.name, ms: Math.round(ms), elements: r.elements.length });
        return entry.item;
      }),
      filter((i): i is DocumentItem => i !== undefined),
    );
    return new Observable<DocumentItem>((sub) => {
      const s = merge(bypass$, out$).subscribe(sub);
      return () => {
        clearInterval(watchdog);
        s.unsubscribe();
      };
    });
  });
}

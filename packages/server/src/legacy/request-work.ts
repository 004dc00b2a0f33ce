import type { FastifyReply } from 'fastify';
import { QuarryError } from '@quarry/core';

/** The signal of one legacy request's work, and the call that says the answer is on its way. */
export interface RequestWork {
  /** Aborts when nobody will read the answer: the connection closed first, or the deadline passed. */
  signal: AbortSignal;
  /** The answer is ready: from here a closing connection is the normal end, not an abandonment. */
  done(): void;
}

/**
 * Ties a request's documents to its client: when the connection closes before the answer (the
 * client gave up, or a proxy timed out) or the request passes `deadlineMs` from its start (queue
 * wait included; 0: none), the signal aborts, so the partition processes stop its documents
 * instead of working on for nobody.
 */
export function requestWork(reply: FastifyReply, deadlineMs: number): RequestWork {
  const controller = new AbortController();
  let finished = false;
  const onClose = (): void => {
    if (!finished) controller.abort(new QuarryError('JOB_ABORTED', 'the client closed the connection before the answer'));
  };
  reply.raw.once('close', onClose);
  const timer =
    deadlineMs > 0
      ? setTimeout(() => {
          controller.abort(
            new QuarryError('NODE_TIMEOUT', `not partitioned within ${deadlineMs / 1000} s of the request`, { details: { timeout_ms: deadlineMs } }),
          );
        }, deadlineMs).unref()
      : undefined;
  return {
    signal: controller.signal,
    done() {
      finished = true;
      clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { BodyReadTurns, discardBody } from './body-reads.js';

/** Bounds of the legacy endpoint's queue: documents accepted and not yet answered. */
export interface AdmissionOptions {
  /** Requests in the queue (read, waiting for a partition process, or being partitioned); default 64. */
  maxQueuedDocuments?: number;
  /** Their bodies' bytes (by `Content-Length`); default 256 MiB. One request is always let in when the queue is empty. */
  maxQueuedBytes?: number;
  /** Seconds a refused client is told to wait (`Retry-After`); default 5. */
  retryAfterSeconds?: number;
  /**
   * Upload bodies (over 256 KiB) read at once, on every endpoint; the others wait their turn with
   * their sockets paused; default 4. Fewer keeps the event loop quick under a burst of uploads.
   */
  bodyReadsAtOnce?: number;
}

/** The JSON body of a refused request. */
export interface BusyBody {
  detail: string;
  code: 'SERVER_BUSY';
}

/** What the gate counts now (exposed for tests and logs). */
export interface AdmissionLoad {
  documents: number;
  bytes: number;
  /** Requests refused since the server started. */
  refused: number;
  /** Upload bodies being read now, on every endpoint (see `bodyReadsAtOnce`). */
  reading: number;
  /** Upload bodies waiting for their turn to be read. */
  waitingToRead: number;
}

export const DEFAULT_ADMISSION: Required<AdmissionOptions> = {
  maxQueuedDocuments: 64,
  maxQueuedBytes: 256 * 1024 * 1024,
  retryAfterSeconds: 5,
  bodyReadsAtOnce: 4,
};

/**
 * Admission control of the legacy partition endpoint: a request enters the queue only while the
 * queue holds fewer than `maxQueuedDocuments` requests and their bodies, with this one, stay within
 * `maxQueuedBytes`; otherwise it is answered at once, before its body is read, with 503, a
 * `Retry-After` header and `{"detail": "Server is under heavy load, ...", "code": "SERVER_BUSY"}`
 * (the hosted Unstructured API's answer, which the `unstructured-client` SDK retries). A request
 * leaves the queue when its response is closed, sent or abandoned. This keeps the memory and disk
 * a burst can take bounded, whatever the number of clients. A refused body is still read and
 * thrown away, one at a time, so the connection stays usable and every client sees the 503.
 */
export class AdmissionGate {
  /** Turns for reading upload bodies (see {@link BodyReadTurns}), shared by every upload endpoint. */
  readonly reads: BodyReadTurns;
  private readonly drains = new BodyReadTurns(1);
  private readonly options: Required<AdmissionOptions>;
  private documents = 0;
  private bytes = 0;
  private refused = 0;

  constructor(
    options: AdmissionOptions = {},
    private readonly unknownLengthBytes: number,
  ) {
    this.options = { ...DEFAULT_ADMISSION, ...definedOnly(options) };
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`admission option ${name} must be a positive integer, got ${value}`);
    }
    this.reads = new BodyReadTurns(this.options.bodyReadsAtOnce);
  }

  /** The counts now. */
  load(): AdmissionLoad {
    const reads = this.reads.load();
    return { documents: this.documents, bytes: this.bytes, refused: this.refused, reading: reads.reading, waitingToRead: reads.waiting };
  }

  /** A Fastify `onRequest` hook: admits the request or answers 503. */
  readonly hook = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const declared = Number(req.headers['content-length']);
    // A chunked body counts as large as the upload limit allows.
    const size = Number.isFinite(declared) && declared >= 0 ? declared : this.unknownLengthBytes;
    const { maxQueuedDocuments, maxQueuedBytes, retryAfterSeconds } = this.options;
    const full = this.documents >= maxQueuedDocuments || (this.documents > 0 && this.bytes + size > maxQueuedBytes);
    if (full) {
      this.refused++;
      const body: BusyBody = {
        detail: `Server is under heavy load: ${this.documents} documents (${this.bytes} bytes) are queued, the limit is ${maxQueuedDocuments} documents or ${maxQueuedBytes} bytes. Retry after ${retryAfterSeconds} s.`,
        code: 'SERVER_BUSY',
      };
      void discardBody(req.raw, this.drains);
      await reply.code(503).header('retry-after', String(retryAfterSeconds)).send(body);
      return;
    }
    this.documents++;
    this.bytes += size;
    // 'close' fires once whether the response was sent or the client went away.
    reply.raw.once('close', () => {
      this.documents--;
      this.bytes -= size;
    });
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

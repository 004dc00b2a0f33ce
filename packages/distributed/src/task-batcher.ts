/** One task as `Queue.addBulk` takes it. */
export interface QueuedTask<D, O> {
  name: string;
  data: D;
  opts: O;
}

/** Where batches go: `Queue.addBulk` (a MULTI of one add script per task, one round trip). */
export type AddBulk<D, O> = (tasks: Array<QueuedTask<D, O>>) => Promise<unknown>;

/**
 * Queues tasks a batch at a time. Adding tasks one by one costs a round trip, a socket write and a
 * Redis wake-up per document, and the coordinator shares the machine with workers; a batch is sent
 * when it holds `size` tasks, when `delayMs` have passed since its first task (so the first
 * documents of a slow listing do not wait for the rest), or on {@link flush}. Batches are sent one
 * after another, in order. A failed send is thrown by the next `add` or `flush`.
 */
export class TaskBatcher<D, O> {
  private pending: Array<QueuedTask<D, O>> = [];
  private sending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly addBulk: AddBulk<D, O>,
    private readonly size: number,
    private readonly delayMs: number,
  ) {}

  /** Adds a task; resolves once any batch it completed has been sent. */
  async add(task: QueuedTask<D, O>): Promise<void> {
    this.throwIfFailed();
    this.pending.push(task);
    if (this.pending.length >= this.size) {
      await this.flush();
    } else if (this.timer === undefined) {
      // send() never rejects: a failure is kept for the next add or flush.
      this.timer = setTimeout(() => void this.send(), this.delayMs);
      this.timer.unref();
    }
  }

  /** Sends what is pending and waits until every batch so far has been sent. */
  async flush(): Promise<void> {
    await this.send();
    this.throwIfFailed();
  }

  /** Drops the tasks not sent yet (a cancelled job) and returns them. */
  discard(): Array<QueuedTask<D, O>> {
    this.clearTimer();
    const dropped = this.pending;
    this.pending = [];
    return dropped;
  }

  private send(): Promise<void> {
    this.clearTimer();
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.sending = this.sending.then(async () => {
        if (this.failure) return;
        try {
          await this.addBulk(batch);
        } catch (error) {
          this.failure = { error };
        }
      });
    }
    return this.sending;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}

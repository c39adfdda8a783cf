export interface GroupCommitOptions<T> {
  /** Most items one write takes. */
  readonly batchSize: number;
  /** Writes running at once. */
  readonly concurrency: number;
  /**
   * How long the oldest waiting item may wait for others before a write starts with fewer than a
   * full batch (0: at once). Each write is a statement and a commit whatever its size, and on a busy
   * machine each costs wake-ups of this process and of PostgreSQL: waiting a little makes fewer,
   * fuller writes.
   */
  readonly lingerMs: number;
  /** Items waiting beyond which {@link GroupCommit.add} holds its caller back (default a batch per writer). */
  readonly maxWaiting?: number;
  /** Writes a batch; it settles its items' fate itself (ack, retry): a rejection is only reported to `onError`. */
  readonly write: (batch: T[]) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/**
 * Hands items to `write` in batches, group-commit style: a write starts when a writer is free and
 * either a full batch waits or the oldest waiting item has waited `lingerMs`; items arriving while
 * every writer is busy go together in the next write. The event consumers' queue (webhook
 * deliveries, the activity projection): under write load a consumer that writes as soon as a
 * writer is free writes a few events a statement, and with 10 ms of linger several times fewer,
 * fuller statements.
 */
export class GroupCommit<T> {
  private readonly queue: T[] = [];
  /** `performance.now()` when each waiting item arrived. */
  private readonly arrivals: number[] = [];
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiting: (() => void)[] = [];
  private readonly maxWaiting: number;

  constructor(private readonly options: GroupCommitOptions<T>) {
    this.maxWaiting = options.maxWaiting ?? options.batchSize * options.concurrency;
  }

  /** Items waiting for a write. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues `item`; resolves at once, or, while {@link GroupCommitOptions.maxWaiting} items wait
   * and every writer is busy, once a write has ended (the caller stops taking more meanwhile).
   */
  async add(item: T): Promise<void> {
    this.queue.push(item);
    this.arrivals.push(performance.now());
    this.start();
    while (this.queue.length >= this.maxWaiting && this.running >= this.options.concurrency) await this.writeEnded();
  }

  /** Resolves once every item queued has been written (the last ones after their linger). */
  async drained(): Promise<void> {
    while (this.running > 0 || this.queue.length > 0) await this.writeEnded();
  }

  private writeEnded(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private start(): void {
    const { batchSize, concurrency, lingerMs } = this.options;
    while (this.running < concurrency && this.queue.length > 0) {
      const waited = performance.now() - (this.arrivals[0] as number);
      if (this.queue.length < batchSize && waited < lingerMs) {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.start();
        }, lingerMs - waited);
        return;
      }
      const batch = this.queue.splice(0, batchSize);
      this.arrivals.splice(0, batchSize);
      this.running += 1;
      void this.options
        .write(batch)
        .catch(this.options.onError)
        .finally(() => {
          this.running -= 1;
          this.start();
          for (const resolve of this.waiting.splice(0)) resolve();
        });
    }
  }
}

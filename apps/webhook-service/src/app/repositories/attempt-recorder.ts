import type { TransactionalSql } from '@service/events';
import { type AttemptRecord, type Completion, type FinishedAttempt, recordAttempt, recordAttempts } from './delivery-store.js';

interface Queued extends FinishedAttempt {
  resolve(): void;
  reject(error: unknown): void;
}

export interface AttemptRecorderOptions {
  /** Most attempts written in one statement. */
  readonly maxBatch: number;
  /** Longest an attempt waits for others to be written with it. */
  readonly gatherMs: number;
  /** True while attempts are still sending, i.e. more are about to end. */
  readonly othersSending: () => boolean;
}

/** Pause before recording again rows another transaction had locked (it commits within milliseconds). */
const LOCKED_ROW_PAUSE_MS = 5;

/**
 * Writes finished attempts in batches: one statement and one commit for many attempts instead of
 * one each. A batch is written when nothing else is sending (an attempt ending on a quiet replica
 * is written at once), when `maxBatch` attempts wait, or `gatherMs` after the first of them
 * ended; attempts ending while a batch is being written go in the next one.
 *
 * `record` resolves once the attempt is committed. Until then the delivery keeps its lease, so it
 * still counts against the per-endpoint cap and no replica attempts it again. If the process dies
 * before the write, the lease runs out and the delivery is attempted again (at least once; the
 * emission of the lost attempt stays open): never lost, never given a wrong final status.
 * A 410 (delete the registration, cancel what it had pending) is written at once, on its own.
 */
export class AttemptRecorder {
  private queue: Queued[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: TransactionalSql,
    private readonly options: AttemptRecorderOptions,
  ) {}

  record(attempt: AttemptRecord, completion: Completion): Promise<void> {
    if (completion.kind === 'failed' && completion.disableRegistration) return recordAttempt(this.db, attempt, completion);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ attempt, completion, resolve, reject });
      this.schedule();
    });
  }

  /** Writes now, or once the batch in progress is written, or when the first queued attempt has waited long enough. */
  private schedule(): void {
    if (this.writing || this.queue.length === 0) return;
    if (this.queue.length >= this.options.maxBatch || !this.options.othersSending()) {
      this.writeNow();
      return;
    }
    this.timer ??= setTimeout(() => this.writeNow(), this.options.gatherMs);
  }

  private writeNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    void this.write(this.queue.splice(0, this.options.maxBatch)).finally(() => {
      this.writing = false;
      // What queued meanwhile has waited at least one write: it goes now.
      if (this.queue.length > 0) this.writeNow();
    });
  }

  private async write(batch: Queued[]): Promise<void> {
    let skipped: FinishedAttempt[];
    try {
      skipped = await recordAttempts(this.db, batch);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    const again = new Set(skipped);
    for (const entry of batch) if (!again.has(entry)) entry.resolve();
    if (again.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, LOCKED_ROW_PAUSE_MS));
      this.queue.unshift(...batch.filter((entry) => again.has(entry)));
    }
  }
}

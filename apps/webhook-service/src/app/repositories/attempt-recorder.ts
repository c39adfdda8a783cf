import type { PgPoolSql } from '@service/sql';
import { type AttemptRecord, type Completion, type FinishedAttempt, recordAttempt, recordAttempts } from './delivery-store.js';

interface Queued extends FinishedAttempt {
  resolve(): void;
  reject(error: unknown): void;
}

export interface AttemptRecorderOptions {
  /** Most attempts written in one statement. */
  readonly maxBatch: number;
}

/** Pause before recording again rows another transaction had locked (it commits within milliseconds). */
const LOCKED_ROW_PAUSE_MS = 5;

/**
 * Writes finished attempts in batches, group-commit style: one statement and one commit for many
 * attempts instead of one each. Attempts that end in the same event-loop turn go together; a
 * batch is written as soon as no other is being written, and attempts ending meanwhile go in the
 * next one (up to `maxBatch` each). No attempt waits for others to end: under load the batches
 * grow with the write's own duration, on a quiet replica each attempt is written at once.
 *
 * `record` resolves once the attempt is committed. Until then the delivery keeps its lease, so no
 * replica attempts it again (and other replicas count it against the per-endpoint cap). If the process dies
 * before the write, the lease runs out and the delivery is attempted again (at least once; the
 * emission of the lost attempt stays open): never lost, never given a wrong final status.
 * A 410 (delete the registration, cancel what it had pending) is written at once, on its own.
 */
export class AttemptRecorder {
  private queue: Queued[] = [];
  private writing = false;
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly db: PgPoolSql,
    private readonly options: AttemptRecorderOptions,
  ) {}

  record(attempt: AttemptRecord, completion: Completion): Promise<void> {
    if (completion.kind === 'failed' && completion.disableRegistration) return recordAttempt(this.db, attempt, completion);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ attempt, completion, resolve, reject });
      // At the end of this turn, with the attempts that end in it; after the write in progress, if any.
      this.scheduled ??= setImmediate(() => {
        this.scheduled = undefined;
        this.writeNext();
      });
    });
  }

  private writeNext(): void {
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    void this.write(this.queue.splice(0, this.options.maxBatch)).finally(() => {
      this.writing = false;
      // What queued meanwhile has waited one write: it goes now.
      this.writeNext();
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

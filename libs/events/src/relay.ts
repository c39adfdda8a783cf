import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { type DomainEvent, type DomainEventType, eventSubject } from '@service/contracts';
import { TRACEPARENT } from '@service/tracing';
import type { EventLogger, SqlExecutor, TransactionalSql } from './sql.js';
import { PollingLoop } from './polling-loop.js';
import { type EventStreamConfig, ensureEventStream } from './stream.js';
import { OutboxMetrics } from './metrics.js';

interface OutboxRow {
  id: string;
  type: DomainEventType;
  org_id: string;
  payload: unknown;
  occurred_at: Date;
  trace_context: string | null;
}

export interface OutboxRelayOptions<Tx extends SqlExecutor> extends EventStreamConfig {
  readonly source: string;
  readonly db: TransactionalSql<Tx>;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly logger: EventLogger;
  /** How often to look for unpublished events when nobody called {@link OutboxRelay.wake}. */
  readonly pollIntervalMs?: number;
  readonly batchSize?: number;
}

/**
 * Publishes committed outbox rows to JetStream, oldest first, with the row id as `Nats-Msg-Id`
 * and the trace context of the request that wrote the row as `traceparent` (when it has one).
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`, so replicas share the work; a crash between
 * publish and marking re-publishes, and the stream's duplicate window drops the copy.
 */
export class OutboxRelay<Tx extends SqlExecutor> {
  private readonly loop: PollingLoop;
  private readonly metrics: OutboxMetrics;

  constructor(private readonly options: OutboxRelayOptions<Tx>) {
    this.metrics = new OutboxMetrics(options.db, options.source);
    this.loop = new PollingLoop(
      async () => void (await this.drain()),
      options.pollIntervalMs ?? 250,
      (error) => options.logger.warn({ err: error }, 'outbox relay could not publish; will retry'),
    );
  }

  async start(): Promise<void> {
    await ensureEventStream(this.options.jsm, this.options);
    this.loop.start();
    this.metrics.start();
  }

  /** Publish now rather than at the next poll; call after committing a transaction with events. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops polling and waits for the batch in flight, so shutdown loses nothing. */
  stop(): Promise<void> {
    this.metrics.stop();
    return this.loop.stop();
  }

  /** Publishes until the outbox is empty; returns how many events went out. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      total += published;
      if (published === 0) return total;
    }
  }

  private async publishBatch(): Promise<number> {
    const { db, js, source, subjectPrefix } = this.options;
    return db.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<OutboxRow[]>(
        `SELECT id::text AS id, type, org_id, payload, occurred_at, trace_context FROM outbox_events
          WHERE published_at IS NULL ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        this.options.batchSize ?? 100,
      );
      if (rows.length === 0) return 0;
      await Promise.all(
        rows.map((row) => {
          const event: DomainEvent = {
            id: row.id,
            type: row.type,
            orgId: row.org_id,
            source,
            occurredAt: row.occurred_at.toISOString(),
            payload: row.payload,
          };
          return js.publish(eventSubject(subjectPrefix, source, row.type), JSON.stringify(event), { msgID: row.id, headers: traceHeaders(row.trace_context) });
        }),
      );
      await tx.$executeRawUnsafe(
        'UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])',
        rows.map((row) => row.id),
      );
      this.metrics.published(rows);
      return rows.length;
    });
  }
}

/** A `traceparent` header for a row written inside a traced request, else none. */
function traceHeaders(traceContext: string | null): ReturnType<typeof headers> | undefined {
  if (!traceContext) return undefined;
  const carrier = headers();
  carrier.set(TRACEPARENT, traceContext);
  return carrier;
}

import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { type DomainEvent, type DomainEventType, eventSubject } from '@service/contracts';
import { TRACEPARENT } from '@service/tracing';
import type { EventLogger, SqlExecutor } from './sql.js';
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

export interface OutboxRelayOptions extends EventStreamConfig {
  readonly source: string;
  readonly db: SqlExecutor;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly logger: EventLogger;
  /** How often to look for unpublished events when nobody called {@link OutboxRelay.wake}. */
  readonly pollIntervalMs?: number;
  readonly batchSize?: number;
  /**
   * How long a claimed batch stays this relay's before another relay may take it (a relay that
   * died between claiming and marking). Far below the stream's duplicate window (10 min), so
   * the copy a lapsed lease re-publishes is dropped by the stream.
   */
  readonly leaseMs?: number;
}

/**
 * Claims the oldest unpublished rows nobody holds a live lease on, in one statement (its own
 * short transaction): `FOR UPDATE SKIP LOCKED` only keeps two relays from claiming the same row
 * at the same instant; the lease (`claimed_until`) keeps it theirs while they publish, with no
 * transaction open and no connection held. Returned oldest first. The rows are read over the
 * partial index of unpublished rows in (occurred_at, id) order and updated by primary key, so a
 * claim reads what it takes: not every unpublished row, not the dead index entries of published
 * ones, not the whole table (`id IN (...)` let the planner hash-join a scan of every row).
 * Exported for the spec that checks the plan.
 */
export const CLAIM_SQL = `WITH claimed AS (
    UPDATE outbox_events SET claimed_until = now() + make_interval(secs => $2::float8 / 1000)
     WHERE id = ANY (ARRAY(SELECT id FROM outbox_events
                            WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
                            ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED))
    RETURNING id, type, org_id, payload, occurred_at, trace_context)
  SELECT id::text AS id, type, org_id, payload, occurred_at, trace_context FROM claimed ORDER BY occurred_at, id`;
const MARK_PUBLISHED = 'UPDATE outbox_events SET published_at = now(), claimed_until = NULL WHERE id = ANY($1::uuid[])';
const RELEASE = 'UPDATE outbox_events SET claimed_until = NULL WHERE id = ANY($1::uuid[]) AND published_at IS NULL';

/**
 * Publishes committed outbox rows to JetStream, oldest first, with the row id as `Nats-Msg-Id`
 * and the trace context of the request that wrote the row as `traceparent` (when it has one).
 * A batch is claimed with a lease in one statement, published with every publish in flight at
 * once, then marked in one statement: no transaction, row lock or pooled connection is held
 * while JetStream answers, so the writers' transactions never wait on the relay and replicas
 * share the work. A crash between publish and marking re-publishes once the lease lapses, and
 * the stream's duplicate window drops the copy; rows whose publish failed are released at once.
 */
export class OutboxRelay {
  private readonly loop: PollingLoop;
  private readonly metrics: OutboxMetrics;

  constructor(private readonly options: OutboxRelayOptions) {
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
    const rows = await db.$queryRawUnsafe<OutboxRow[]>(CLAIM_SQL, this.options.batchSize ?? 100, this.options.leaseMs ?? 30_000);
    if (rows.length === 0) return 0;
    const outcomes = await Promise.allSettled(
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
    const published = rows.filter((_, i) => outcomes[i]?.status === 'fulfilled');
    const failed = rows.filter((_, i) => outcomes[i]?.status === 'rejected');
    if (published.length > 0) {
      await db.$executeRawUnsafe(MARK_PUBLISHED, published.map((row) => row.id));
      this.metrics.published(published);
    }
    if (failed.length > 0) {
      await db.$executeRawUnsafe(RELEASE, failed.map((row) => row.id));
      throw (outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason;
    }
    return rows.length;
  }
}

/** A `traceparent` header for a row written inside a traced request, else none. */
function traceHeaders(traceContext: string | null): ReturnType<typeof headers> | undefined {
  if (!traceContext) return undefined;
  const carrier = headers();
  carrier.set(TRACEPARENT, traceContext);
  return carrier;
}

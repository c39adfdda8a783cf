import { randomUUID } from 'node:crypto';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { type DomainEventType, eventSubject } from '@service/contracts';
import { TRACEPARENT } from '@service/tracing';
import type { SqlExecutor } from '@service/sql';
import type { EventLogger } from './event-logger.js';
import { PollingLoop } from './polling-loop.js';
import { type EventStreamConfig, ensureEventStream, warnOfStreamDifferences } from './stream.js';
import { OutboxMetrics } from './metrics.js';

/** A row of the outbox as the relay reads it: its position, and the event's JSON parts as text. */
interface OutboxRow {
  txid: string;
  seq: string;
  id: string;
  type: DomainEventType;
  org_id: string;
  /** The payload's JSON text, put into the published event as it is (never parsed here). */
  payload: string;
  occurred_at: Date;
  trace_context: string | null;
}

/** Where the relay stands in the outbox: every row at or before it is published. */
interface Position {
  readonly txid: string;
  readonly seq: string;
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
   * How long the replica publishing the outbox keeps that role without renewing it (default 5 s;
   * each batch renews it, an empty outbox gives it up). Another replica takes over once it
   * lapses, from the last position recorded: the longest the events wait after the publishing
   * replica died mid-batch. Far below the stream's duplicate window (10 min), so what that
   * replica had published but not recorded is dropped by the stream when published again.
   */
  readonly leaseMs?: number;
}

/**
 * One statement per batch (its own short transaction): records where the last batch ended (when
 * this relay still holds the outbox), and reads the next rows after that position, taking or
 * renewing the lease when there are any and giving it up when there are none.
 *
 * The outbox is read in (txid, seq) order: `txid` is the writing transaction's id, `seq` the
 * row's place in it. Only rows of transactions below the horizon are read: the oldest
 * transaction id still running (`pg_snapshot_xmin`). Every transaction below it has ended, so no
 * row at or before a position the relay records can commit later, and the relay never skips an
 * event; a row of a transaction still open (and every row of later transactions) waits until it
 * ends. The outbox is only ever inserted into: nothing is claimed or marked row by row, so a
 * batch reads what it publishes, over the index, and no dead row versions pile up under it.
 *
 * Exported for the spec that checks the plan. Parameters: $1 this relay's id, $2 the lease (ms),
 * $3 and $4 the position the last batch reached (null for none), $5 the batch size.
 */
export const NEXT_BATCH_SQL = `WITH cursor AS (
    SELECT CASE WHEN holder = $1::uuid AND $3::xid8 IS NOT NULL THEN $3::xid8 ELSE last_txid END AS txid,
           CASE WHEN holder = $1::uuid AND $3::xid8 IS NOT NULL THEN $4::bigint ELSE last_seq END AS seq
      FROM outbox_relay WHERE name = 'relay'
  ), next AS (
    SELECT o.* FROM cursor c CROSS JOIN LATERAL (
      SELECT txid, seq, id, type, org_id, payload, occurred_at, trace_context FROM outbox_events
       WHERE (txid, seq) > (c.txid, c.seq) AND txid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY txid, seq LIMIT $5) o
  ), held AS (
    UPDATE outbox_relay r
       SET last_txid = c.txid, last_seq = c.seq,
           holder = CASE WHEN EXISTS (SELECT FROM next) THEN $1::uuid END,
           held_until = CASE WHEN EXISTS (SELECT FROM next) THEN now() + make_interval(secs => $2::float8 / 1000) END
      FROM cursor c
     WHERE r.name = 'relay' AND (r.holder IS NULL OR r.holder = $1::uuid OR r.held_until < now())
       AND (r.holder = $1::uuid OR EXISTS (SELECT FROM next))
    RETURNING 1
  )
  SELECT txid::text AS txid, seq::text AS seq, id::text AS id, type, org_id, payload::text AS payload, occurred_at, trace_context
    FROM next WHERE EXISTS (SELECT FROM held) ORDER BY next.txid, next.seq`;

/**
 * Publishes committed outbox rows to JetStream in the order their transactions took ids, with
 * the row id as `Nats-Msg-Id` and the trace context of the request that wrote the row as
 * `traceparent` (when it has one). One replica publishes at a time (it holds the outbox's lease,
 * renewed with each batch and given up when the outbox is empty); a batch is read, published
 * with every publish in flight at once, and its end recorded with the next read, so no
 * transaction, row lock or pooled connection is held while JetStream answers and the writers
 * never wait on the relay. A crash between publishing and recording re-publishes from the last
 * recorded position (the stream's duplicate window drops the copies); a failed publish stops the
 * batch's recorded end before it, and the next batch starts there.
 */
export class OutboxRelay {
  private readonly loop: PollingLoop;
  private readonly metrics: OutboxMetrics;
  /** This relay's id as the outbox's lease holder. */
  private readonly id = randomUUID();

  constructor(private readonly options: OutboxRelayOptions) {
    this.metrics = new OutboxMetrics(options.db, options.source);
    this.loop = new PollingLoop(
      async () => void (await this.drain()),
      options.pollIntervalMs ?? 250,
      (error) => options.logger.warn({ err: error }, 'outbox relay could not publish; will retry'),
    );
  }

  async start(): Promise<void> {
    warnOfStreamDifferences(this.options.logger, this.options, await ensureEventStream(this.options.jsm, this.options));
    // The migration that creates the table records where publishing starts; should the row be
    // gone, starting over from the beginning re-publishes (consumers drop what they applied)
    // where the lack of it would publish nothing, silently.
    await this.options.db.$executeRawUnsafe(`INSERT INTO outbox_relay (name) VALUES ('relay') ON CONFLICT DO NOTHING`);
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

  /** Publishes until the outbox holds nothing more it may publish; returns how many events went out. */
  async drain(): Promise<number> {
    let total = 0;
    let reached: Position | undefined;
    for (;;) {
      const rows = await this.nextBatch(reached);
      if (rows.length === 0) return total;
      const { published, failure } = await this.publish(rows);
      total += published.length;
      this.metrics.published(published);
      const last = published.at(-1);
      if (last) reached = { txid: last.txid, seq: last.seq };
      if (failure) {
        // Record how far it got, then retry from there at the next tick.
        if (reached) await this.nextBatch(reached, 0);
        throw failure;
      }
    }
  }

  private nextBatch(reached: Position | undefined, size = this.options.batchSize ?? 100): Promise<OutboxRow[]> {
    return this.options.db.$queryRawUnsafe<OutboxRow[]>(
      NEXT_BATCH_SQL,
      this.id,
      this.options.leaseMs ?? 5_000,
      reached?.txid ?? null,
      reached?.seq ?? null,
      size,
    );
  }

  /** Publishes the rows, all in flight at once; those before the first that failed, and that failure. */
  private async publish(rows: readonly OutboxRow[]): Promise<{ published: OutboxRow[]; failure?: unknown }> {
    const { js, source, subjectPrefix } = this.options;
    const outcomes = await Promise.allSettled(
      rows.map((row) =>
        js.publish(eventSubject(subjectPrefix, source, row.type), eventJson(row, source), {
          msgID: row.id,
          headers: traceHeaders(row.trace_context),
        }),
      ),
    );
    const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (failed < 0) return { published: [...rows] };
    return { published: rows.slice(0, failed), failure: (outcomes[failed] as PromiseRejectedResult).reason };
  }
}

/**
 * The published `DomainEvent` `{id, type, orgId, source, occurredAt, payload}` as JSON, with the
 * payload's text from the database put in as it is rather than parsed and written again.
 */
function eventJson(row: OutboxRow, source: string): string {
  const head = JSON.stringify({ id: row.id, type: row.type, orgId: row.org_id, source, occurredAt: row.occurred_at.toISOString() });
  return `${head.slice(0, -1)},"payload":${row.payload}}`;
}

/** A `traceparent` header for a row written inside a traced request, else none. */
function traceHeaders(traceContext: string | null): ReturnType<typeof headers> | undefined {
  if (!traceContext) return undefined;
  const carrier = headers();
  carrier.set(TRACEPARENT, traceContext);
  return carrier;
}

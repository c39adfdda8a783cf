import type { JetStreamManager } from '@nats-io/jetstream';
import { counter, DELAY_BUCKETS, gauge, histogram, onScrape, throttled } from '@service/metrics';
import type { SqlExecutor } from '@service/sql';
import { unpublishedOutboxRows } from './outbox.js';

const publishLag = histogram({
  name: 'outbox_publish_lag_seconds',
  help: 'Time from an outbox event occurring (its row committed) to its publication on JetStream, by source service.',
  labelNames: ['source'] as const,
  buckets: DELAY_BUCKETS,
});
const waiting = gauge({
  name: 'outbox_events_waiting',
  help: 'Outbox rows not yet published, by source service (sampled at most every 15 s when scraped).',
  labelNames: ['source'] as const,
});

/**
 * The outbox relay's metrics. Lag is observed per row as it is published (the rows of a batch
 * carry `occurred_at`). Waiting rows are counted (the committed rows after the relay's position)
 * when Prometheus scrapes, at most every 15 s: a batch only knows whether more than one batch
 * waits, not how many, and an alert on a growing outbox needs the number. The count reads the
 * `(txid, seq)` index from the relay's position on, so only the entries of unpublished rows,
 * however large the table grows.
 */
export class OutboxMetrics {
  private readonly lag: ReturnType<typeof publishLag.labels>;
  private readonly waiting: ReturnType<typeof waiting.labels>;
  private unregister: (() => void) | undefined;

  constructor(
    private readonly db: SqlExecutor,
    source: string,
  ) {
    this.lag = publishLag.labels(source);
    this.waiting = waiting.labels(source);
  }

  start(): void {
    this.unregister ??= onScrape(
      throttled(async () => {
        const [row] = await this.db.$queryRawUnsafe<{ count: number }[]>(`SELECT count(*)::int AS count FROM ${unpublishedOutboxRows()}`);
        this.waiting.set(row?.count ?? 0);
      }),
    );
  }

  stop(): void {
    this.unregister?.();
    this.unregister = undefined;
  }

  /** Rows just published. */
  published(rows: readonly { readonly occurred_at: Date }[]): void {
    const now = Date.now();
    for (const row of rows) this.lag.observe(Math.max(0, now - row.occurred_at.getTime()) / 1000);
  }
}

/** Events a durable consumer terminated unread: not on the subject of their type's publisher, or for all organizations when their type is of one. */
export const refusedEvents = counter({
  name: 'domain_events_refused_total',
  help: "Events a durable consumer refused (terminated, not processed) because their subject is not their type's publisher's, or their orgId is * for a type of one organization, by consumer.",
  labelNames: ['consumer'] as const,
});

const pending = gauge({
  name: 'jetstream_consumer_pending_messages',
  help: 'Messages of the stream not yet delivered to the durable consumer (num_pending), sampled at most every 15 s.',
  labelNames: ['consumer'] as const,
});
const ackPending = gauge({
  name: 'jetstream_consumer_ack_pending_messages',
  help: 'Messages delivered to the durable consumer and not yet acknowledged (num_ack_pending), sampled at most every 15 s.',
  labelNames: ['consumer'] as const,
});
const redelivered = gauge({
  name: 'jetstream_consumer_redelivered_messages',
  help: 'Messages the durable consumer has had redelivered and not yet acknowledged (num_redelivered), sampled at most every 15 s.',
  labelNames: ['consumer'] as const,
});

/**
 * Samples a durable consumer's info (pending, ack pending, redelivered) when Prometheus scrapes,
 * at most every 15 s, never per message. Labelled by the durable's name only: the stream is the
 * deployment's one event stream. Returns the unregistration.
 */
export function watchConsumer(jsm: JetStreamManager, stream: string, durable: string): () => void {
  const gauges = { pending: pending.labels(durable), ackPending: ackPending.labels(durable), redelivered: redelivered.labels(durable) };
  return onScrape(
    throttled(async () => {
      const info = await jsm.consumers.info(stream, durable);
      gauges.pending.set(info.num_pending);
      gauges.ackPending.set(info.num_ack_pending);
      gauges.redelivered.set(info.num_redelivered);
    }),
  );
}

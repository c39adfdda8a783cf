import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { AnyDomainEvent } from '@service/contracts';
import { metricsText } from '@service/metrics';
import { queriesFileDifferences, type RecordedStatement, RecordingSql, type SqlFileEntry } from '@service/testing';
import { type ConsumedEvent, DurableConsumer } from '../consumer.js';
import type { EventLogger } from '../event-logger.js';
import { OutboxMetrics } from '../metrics.js';
import { enqueueEvent } from '../outbox.js';
import { NEXT_BATCH_SQL, OutboxRelay } from '../relay.js';
import { eventStreamSettings } from '../stream.js';

/**
 * The statements this lib runs in every service that has an outbox or a durable consumer, as text:
 * each is run on a `RecordingSql` through the lib's own classes and functions, and what it ran is
 * compared with `src/queries/<module>.sql` (`UPDATE_SQL=1` writes the files). Each service's own
 * statements are in its `src/queries`.
 */
const EVENT_ID = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';
const OTHER_EVENT_ID = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const STREAM = { stream: 'DOMAIN_EVENTS', subjectPrefix: 'events' };

/** One outbox row as the relay's batch statement returns it. */
const row = {
  txid: '1001',
  seq: '1',
  id: EVENT_ID,
  type: 'portfolio_wallet.status_changed',
  org_id: 'org_a',
  payload: '{}',
  occurred_at: new Date('2026-11-21T10:00:00.000Z'),
  trace_context: null,
};
/** The relay's first batch statement finds one row, the next none. */
let batches = 0;
const sql = new RecordingSql((statement: RecordedStatement) => (statement.text === NEXT_BATCH_SQL && batches++ === 0 ? [row] : []));
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);

const logger: EventLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** JetStream as the relay sees it: the stream as it should be, every publish acknowledged. */
const jsm = { streams: { info: async () => ({ config: eventStreamSettings(STREAM) }) } } as unknown as JetStreamManager;
const js = { publish: async () => ({ seq: 1, duplicate: false, stream: STREAM.stream }) } as unknown as JetStreamClient;
const relay = () => new OutboxRelay({ ...STREAM, source: 'wallet', db: sql, js, jsm, logger });

const event = (id: string): ConsumedEvent => ({
  message: {} as ConsumedEvent['message'],
  event: {
    id,
    type: 'portfolio_wallet.status_changed',
    orgId: 'org_a',
    source: 'wallet',
    occurredAt: row.occurred_at.toISOString(),
    payload: {},
  } as AnyDomainEvent,
  span: undefined,
});
/**
 * A durable consumer's transaction of `events`, as it runs once they are parsed: through the
 * consumer's own (private) commit, since only a JetStream subscription feeds it otherwise. The
 * handler runs no statement, so only the consumer's are recorded.
 */
const consumed = (events: ConsumedEvent[], idempotentHandler = false) => {
  const consumer = new DurableConsumer({
    ...STREAM,
    durable: 'activity-projection',
    db: sql,
    js,
    jsm,
    logger,
    handle: async () => undefined,
    idempotentHandler,
  });
  return (consumer as unknown as { commit(events: readonly ConsumedEvent[]): Promise<unknown> }).commit(events);
};

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  outbox: async () => [
    await ran("enqueueEvent(tx, {type 'portfolio_wallet.status_changed', orgId, payload})", () =>
      enqueueEvent(sql, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: {} as never }),
    ),
  ],
  relay: async () => [
    await ran(
      'OutboxRelay.start(): the relay row, should the migration have left none (then polling starts; stopped at once here)',
      async () => {
        const started = relay();
        await started.start();
        await started.stop();
      },
    ),
    await ran('OutboxRelay.drain(): a batch of one row, published; then the next batch, recording where that one ended, finds none', () =>
      relay().drain(),
    ),
  ],
  metrics: async () => [
    await ran('OutboxMetrics.start(), sampled by a scrape (metricsText()): the outbox rows not yet published', async () => {
      const metrics = new OutboxMetrics(sql, 'wallet');
      metrics.start();
      try {
        await metricsText();
      } finally {
        metrics.stop();
      }
    }),
  ],
  consumer: async () => [
    await ran('DurableConsumer, one event: recorded as processed in the transaction that applies it', () => consumed([event(EVENT_ID)])),
    await ran('DurableConsumer, a batch of two events: recorded as processed in one statement', () =>
      consumed([event(EVENT_ID), event(OTHER_EVENT_ID)]),
    ),
    await ran('DurableConsumer with idempotentHandler: only the handler runs in the transaction', () => consumed([event(EVENT_ID)], true)),
  ],
};

describe('the statements of @service/events, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });
});

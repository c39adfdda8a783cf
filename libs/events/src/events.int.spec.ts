import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent, PortfolioWalletEventPayload } from '@service/contracts';
import {
  isolatedEventStream,
  migratedSchema,
  newRunId,
  TEST_DATABASE_URL,
  TEST_NATS_URL,
  type IsolatedSchema,
  type IsolatedStream,
} from '@service/testing';
import { metricsText } from '@service/metrics';
import { PgPoolSql, type SqlExecutor } from '@service/sql';
import {
  DurableConsumer,
  type DurableConsumerOptions,
  enqueueEvent,
  ensureDurableConsumer,
  ensureEventStream,
  ENSURE_EVENT_STREAM_COMMAND,
  NEXT_BATCH_SQL,
  OutboxMetrics,
  OutboxRelay,
  unpublishedOutboxRows,
  updateEventStream,
  warnOfStreamDifferences,
  watchConsumer,
} from './index.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const runId = newRunId();
let schema: IsolatedSchema;
let stream: IsolatedStream;
let db: PgPoolSql;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;
const topics = new Map<string, IsolatedStream & { config: { stream: string; subjectPrefix: string } }>();

beforeAll(async () => {
  schema = await migratedSchema('wallet-service', runId);
  stream = isolatedEventStream(runId);
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema });
  nc = await connect({ servers: TEST_NATS_URL });
  js = jetstream(nc);
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await nc?.close();
  await db?.end();
  await schema?.drop();
  await stream?.destroy();
  for (const topic of topics.values()) await topic.destroy();
});

const relayOf = () => new OutboxRelay({ source: 'wallet', db, js, jsm, logger, pollIntervalMs: 50, ...streamConfig() });
const streamConfig = () => ({ stream: stream.EVENTS_STREAM, subjectPrefix: stream.EVENTS_SUBJECT_PREFIX });

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A portfolio_wallet.status_changed payload, told apart by its wallet id. */
function statusChanged(n: number): PortfolioWalletEventPayload<'portfolio_wallet.status_changed'> {
  const walletId = `w_${n}`;
  return {
    event: 'portfolio_wallet.status_changed',
    observedAt: '2026-11-21T10:00:00.000Z',
    walletId,
    wallet: { id: walletId, status: 'idle' },
  };
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** Outbox rows committed and not yet published. */
async function unpublished(): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${unpublishedOutboxRows()}`);
  return row?.n ?? -1;
}

const enqueued = (n: number) => (tx: SqlExecutor) =>
  enqueueEvent(tx, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: statusChanged(n) });
/**
 * A stream of its own for a topic (one test's events): consumers take an event only on its
 * publisher's subject (`<prefix>.wallet.<type>` here), so topics cannot share one stream's subjects.
 */
function topicStream(topic: string): IsolatedStream & { config: { stream: string; subjectPrefix: string } } {
  let topicOf = topics.get(topic);
  if (!topicOf) {
    const isolated = isolatedEventStream(`${runId}_${topic}`);
    topicOf = { ...isolated, config: { stream: isolated.EVENTS_STREAM, subjectPrefix: isolated.EVENTS_SUBJECT_PREFIX } };
    topics.set(topic, topicOf);
  }
  return topicOf;
}
/** Publishes a domain event straight to the topic's stream (no outbox), as the wallet relay would. */
const publishStatusChanged = (topic: string, id: string, n: number) =>
  js.publish(
    `${topicStream(topic).EVENTS_SUBJECT_PREFIX}.wallet.portfolio_wallet.status_changed`,
    JSON.stringify({
      id,
      type: 'portfolio_wallet.status_changed',
      orgId: 'org_a',
      source: 'wallet',
      occurredAt: new Date().toISOString(),
      payload: statusChanged(n),
    }),
  );
const streamMessages = async () => (await jsm.streams.info(stream.EVENTS_STREAM)).state.messages;

describe('outbox and relay', () => {
  it('publishes committed events once, with the outbox id as Nats-Msg-Id, and never rolled-back ones', async () => {
    const relay = relayOf();
    await relay.start();
    const committed = await db.$transaction(enqueued(1));
    await expect(
      db.$transaction(async (tx) => {
        await enqueued(2)(tx);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    relay.wake();
    await waitFor(async () => (await streamMessages()) === 1);
    await relay.stop();

    const message = await jsm.streams.getMessage(stream.EVENTS_STREAM, { seq: 1 });
    expect(message?.header.get('Nats-Msg-Id')).toBe(committed);
    expect(message?.subject).toBe(`${stream.EVENTS_SUBJECT_PREFIX}.wallet.portfolio_wallet.status_changed`);
    expect(message?.json<DomainEvent>()).toEqual({
      id: committed,
      type: 'portfolio_wallet.status_changed',
      orgId: 'org_a',
      source: 'wallet',
      occurredAt: expect.any(String),
      payload: statusChanged(1),
    });
    expect(await unpublished()).toBe(0);
  });

  it('loses nothing and duplicates nothing when the relay dies between publishing and recording how far it got', async () => {
    await db.$transaction(enqueued(3));
    const [position] = await db.$queryRawUnsafe<{ txid: string; seq: string }[]>(
      'SELECT last_txid::text AS txid, last_seq::text AS seq FROM outbox_relay',
    );
    const before = await streamMessages();
    expect(await relayOf().drain()).toBe(1);
    // The relay that published died before recording it, still holding the outbox: no other relay
    // publishes until its lease lapses, then the next one publishes the event again.
    await db.$executeRawUnsafe(
      "UPDATE outbox_relay SET last_txid = $1::xid8, last_seq = $2::bigint, holder = $3::uuid, held_until = now() + interval '1 minute'",
      position?.txid,
      position?.seq,
      randomUUID(),
    );
    expect(await unpublished()).toBe(1);
    expect(await relayOf().drain()).toBe(0);
    await db.$executeRawUnsafe("UPDATE outbox_relay SET held_until = now() - interval '1 millisecond'");
    expect(await relayOf().drain()).toBe(1);
    // The stream dropped the copy (same Nats-Msg-Id).
    expect(await streamMessages()).toBe(before + 1);
    expect(await unpublished()).toBe(0);
  });

  it('holds no transaction or lock while JetStream answers, and starts the next batch at a publish that failed', async () => {
    const ids = await db.$transaction(async (tx) => [await enqueued(4)(tx), await enqueued(5)(tx)]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let publishing = 0;
    const stalled = {
      publish: async (...args: Parameters<JetStreamClient['publish']>) => {
        publishing += 1;
        await gate;
        if ((args[2]?.msgID ?? '') === ids[1]) throw new Error('no JetStream ack');
        return js.publish(...args);
      },
    } as unknown as JetStreamClient;
    const relay = new OutboxRelay({ source: 'wallet', db, js: stalled, jsm, logger, ...streamConfig() });
    const draining = relay.drain();
    try {
      await waitFor(() => publishing === 2);
      // Both publishes are in flight at once; meanwhile a writer commits, and the outbox's rows and
      // the relay's own row can be locked (NOWAIT fails on a held lock).
      await db.$transaction(enqueued(6));
      const locked = await db.$transaction(async (tx) => [
        ...(await tx.$queryRawUnsafe<{ id: string }[]>(
          'SELECT id::text AS id FROM outbox_events WHERE id = ANY($1::uuid[]) FOR UPDATE NOWAIT',
          ids,
        )),
        ...(await tx.$queryRawUnsafe<{ id: string }[]>('SELECT name AS id FROM outbox_relay FOR UPDATE NOWAIT')),
      ]);
      expect(locked).toHaveLength(3);
    } finally {
      release();
    }
    await expect(draining).rejects.toThrow('no JetStream ack');
    // Recorded up to the first event; the one that failed and the one written meanwhile are next.
    expect(await unpublished()).toBe(2);
    const before = await streamMessages();
    expect(await relayOf().drain()).toBe(2);
    expect(await streamMessages()).toBe(before + 2);
  });

  it('publishes nothing written after a transaction still open began until it ends, then all of it in order', async () => {
    let finish: (outcome: 'commit' | 'rollback') => void = () => undefined;
    const ended = new Promise<'commit' | 'rollback'>((resolve) => (finish = resolve));
    let written = false;
    const open = async (n: number) =>
      db.$transaction(async (tx) => {
        const id = await enqueued(n)(tx);
        written = true;
        if ((await ended) === 'rollback') throw new Error('rolled back');
        return id;
      });
    const first = open(7);
    let later: string;
    // Whatever fails here, the open transaction ends: left open, it would hold up every relay on
    // the server and keep Jest from exiting.
    try {
      await waitFor(() => written);
      later = await db.$transaction(enqueued(8));
      // Committed, but after the open transaction took its id: it could still commit rows before it.
      expect(await unpublished()).toBe(1);
      expect(await relayOf().drain()).toBe(0);
    } finally {
      finish('commit');
    }
    const earlier = await first;
    const before = await streamMessages();
    expect(await relayOf().drain()).toBe(2);
    const published = await Promise.all([before + 1, before + 2].map((seq) => jsm.streams.getMessage(stream.EVENTS_STREAM, { seq })));
    expect(published.map((message) => message?.header.get('Nats-Msg-Id'))).toEqual([earlier, later]);
  });

  it('is held up by a transaction that then rolls back only until it does', async () => {
    let rollBack: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (rollBack = resolve));
    let written = false;
    const open = db.$transaction(async (tx) => {
      await enqueued(9)(tx);
      written = true;
      await ended;
      throw new Error('rolled back');
    });
    let later: string;
    try {
      await waitFor(() => written);
      later = await db.$transaction(enqueued(10));
      expect(await relayOf().drain()).toBe(0);
    } finally {
      rollBack();
    }
    await expect(open).rejects.toThrow('rolled back');
    const before = await streamMessages();
    expect(await relayOf().drain()).toBe(1);
    expect((await jsm.streams.getMessage(stream.EVENTS_STREAM, { seq: before + 1 }))?.header.get('Nats-Msg-Id')).toBe(later);
  });
});

const consumerOf = (handle: (event: DomainEvent, tx: SqlExecutor) => Promise<void>, concurrency = 1) =>
  new DurableConsumer({
    concurrency,
    durable: `test-${runId}`,
    filterSubject: `${stream.EVENTS_SUBJECT_PREFIX}.wallet.>`,
    db,
    js,
    jsm,
    logger,
    ...streamConfig(),
    handle,
  });

/** A consumer of the topic's stream (durable `<topic>-<run>`) in batches of up to 16. */
const batchConsumerOf = (topic: string, options: Pick<DurableConsumerOptions<SqlExecutor>, 'handleBatch' | 'idempotentHandler'>) =>
  new DurableConsumer({
    durable: `${topic}-${runId}`,
    db,
    js,
    jsm,
    logger,
    ...topicStream(topic).config,
    batchSize: 16,
    handle: () => Promise.reject(new Error('handleBatch is given')),
    ...options,
  });

describe('outbox read', () => {
  it('reads the rows after its position over the (txid, seq) index, without reading or sorting the published ones', async () => {
    await db.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, type, org_id, payload, occurred_at)
       SELECT gen_random_uuid(), 'portfolio_wallet.status_changed', 'org_plan', '{}'::jsonb, now() FROM generate_series(1, 20000)`,
    );
    try {
      await db.$executeRawUnsafe('ANALYZE outbox_events');
      const [row] = await db.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(
        `EXPLAIN (FORMAT JSON) ${NEXT_BATCH_SQL}`,
        randomUUID(),
        30_000,
        null,
        null,
        100,
      );
      const nodes = planNodes((row?.['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan);
      const outbox = nodes.filter((node) => node['Relation Name'] === 'outbox_events');
      // One scan of the outbox, over the index in its order (no sort of the rows it reads), stopped by the LIMIT.
      expect(outbox.map((node) => [node['Node Type'], node['Index Name']])).toEqual([['Index Scan', 'outbox_events_txid_seq_idx']]);
      expect(
        nodes.some(
          (node) => node['Node Type'] === 'Sort' && (node.Plans ?? []).some((child) => child['Relation Name'] === 'outbox_events'),
        ),
      ).toBe(false);
    } finally {
      await db.$executeRawUnsafe("DELETE FROM outbox_events WHERE org_id = 'org_plan'");
    }
  });
});

describe('durable consumer', () => {
  it('applies each event once, several at a time, even when the handler fails first and events are redelivered', async () => {
    await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS applied (event_id uuid, n int)');
    let failures = 1;
    const consumer = consumerOf(async (event, tx) => {
      await tx.$executeRawUnsafe('INSERT INTO applied VALUES ($1::uuid, $2)', event.id, (event.payload as { n?: number }).n ?? 0);
      if (failures > 0) {
        failures -= 1;
        throw new Error('transient');
      }
    }, 4);
    // One row per event the relay specs above published.
    const published = (await jsm.streams.info(stream.EVENTS_STREAM)).state.messages;
    await consumer.start();
    const count = async () => (await db.$queryRawUnsafe<{ c: number }[]>('SELECT count(*)::int AS c FROM applied'))[0]?.c ?? 0;
    await waitFor(async () => (await count()) === published, 10_000);
    await consumer.stop();

    // Delivered again from the start (as after a lost ack): nothing is applied twice.
    await jsm.consumers.delete(stream.EVENTS_STREAM, `test-${runId}`);
    const again = consumerOf(async (event, tx) => {
      await tx.$executeRawUnsafe('INSERT INTO applied VALUES ($1::uuid, 0)', event.id);
    });
    await again.start();
    await waitFor(
      async () =>
        (await jsm.consumers.info(stream.EVENTS_STREAM, `test-${runId}`)).num_ack_pending === 0 &&
        (await jsm.consumers.info(stream.EVENTS_STREAM, `test-${runId}`)).num_pending === 0,
    );
    await again.stop();
    expect(await count()).toBe(published);
  });
});

describe('durable consumer in batches', () => {
  it('records a batch in one transaction, applies each event once (an id twice in a batch too), and retries only the event that fails', async () => {
    await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS applied_batches (event_id uuid, batch int)');
    await ensureEventStream(jsm, topicStream('batches').config);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const poison = ids[17] ?? '';
    const publish = (id: string, n: number) => publishStatusChanged('batches', id, n);
    for (const [n, id] of ids.entries()) {
      await publish(id, n);
      // A copy under another stream sequence (a publisher's retry), likely in the same batch: applied once.
      if (n === 5) await publish(id, n);
    }
    const sizes: number[] = [];
    let failures = 2;
    const consumer = batchConsumerOf('batches', {
      handleBatch: async (events, tx) => {
        const batch = sizes.push(events.length);
        for (const event of events) await tx.$executeRawUnsafe('INSERT INTO applied_batches VALUES ($1::uuid, $2)', event.id, batch);
        // Fails its batch, then once more on its own: nak'd and redelivered later, the rest applied meanwhile.
        if (failures > 0 && events.some((event) => event.id === poison)) {
          failures -= 1;
          throw new Error('transient');
        }
      },
    });
    await consumer.start();
    const applied = async () =>
      db.$queryRawUnsafe<{ event_id: string; batch: number }[]>('SELECT event_id::text AS event_id, batch FROM applied_batches');
    await waitFor(async () => (await applied()).length === ids.length - 1);
    expect((await applied()).map((row) => row.event_id)).not.toContain(poison);
    await waitFor(async () => (await applied()).length === ids.length, 10_000);
    await consumer.stop();

    const rows = await applied();
    expect(rows.map((row) => row.event_id).sort()).toEqual([...ids].sort());
    // Group commit: the events waiting while a transaction ran went together.
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    const processed = await db.$queryRawUnsafe<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1',
      `batches-${runId}`,
    );
    expect(processed[0]?.n).toBe(ids.length);
  });
});

describe('durable consumer with an idempotent handler', () => {
  it('applies every event, in batches, without a processed_events row; a redelivery is applied again', async () => {
    await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS converged (event_id uuid PRIMARY KEY, applications int NOT NULL)');
    await ensureEventStream(jsm, topicStream('converging').config);
    const ids = Array.from({ length: 30 }, () => randomUUID());
    for (const [n, id] of ids.entries()) await publishStatusChanged('converging', id, n);
    const durable = `converging-${runId}`;
    const sizes: number[] = [];
    const consumerOfBatches = () =>
      batchConsumerOf('converging', {
        idempotentHandler: true,
        handleBatch: async (events, tx) => {
          sizes.push(events.length);
          for (const event of events) {
            await tx.$executeRawUnsafe(
              'INSERT INTO converged VALUES ($1::uuid, 1) ON CONFLICT (event_id) DO UPDATE SET applications = converged.applications + 1',
              event.id,
            );
          }
        },
      });
    const applications = async () =>
      (await db.$queryRawUnsafe<{ n: number }[]>('SELECT coalesce(sum(applications), 0)::int AS n FROM converged'))[0]?.n;
    const settled = async () => {
      const info = await jsm.consumers.info(topicStream('converging').EVENTS_STREAM, durable);
      return info.num_ack_pending === 0 && info.num_pending === 0;
    };
    const first = consumerOfBatches();
    await first.start();
    await waitFor(async () => (await applications()) === ids.length && (await settled()));
    await first.stop();
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    const processed = await db.$queryRawUnsafe<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1',
      durable,
    );
    expect(processed[0]?.n).toBe(0);

    // Delivered again from the start (as after a lost ack): nothing remembers it, so it is applied again.
    await jsm.consumers.delete(topicStream('converging').EVENTS_STREAM, durable);
    const again = consumerOfBatches();
    await again.start();
    await waitFor(async () => (await applications()) === 2 * ids.length && (await settled()));
    await again.stop();
    const rows = await db.$queryRawUnsafe<{ event_id: string; applications: number }[]>(
      'SELECT event_id::text AS event_id, applications FROM converged',
    );
    expect(rows.map((row) => row.event_id).sort()).toEqual([...ids].sort());
    expect(rows.every((row) => row.applications === 2)).toBe(true);
  });
});

describe('durable consumer that records its own batches', () => {
  it('acks a batch once its commit resolves, then runs what the commit returned; a failed commit is retried event by event', async () => {
    await ensureEventStream(jsm, topicStream('recording').config);
    const ids = Array.from({ length: 30 }, () => randomUUID());
    const poison = ids[11] ?? '';
    for (const [n, id] of ids.entries()) await publishStatusChanged('recording', id, n);
    const durable = `recording-${runId}`;
    const committed = new Set<string>();
    const afterwards: string[] = [];
    let failures = 2;
    const consumer = new DurableConsumer({
      durable,
      js,
      jsm,
      logger,
      ...topicStream('recording').config,
      batchSize: 16,
      commit: async (events) => {
        expect(events.every(({ message, event, span }) => message.subject.endsWith(event.type) && span === undefined)).toBe(true);
        if (failures > 0 && events.some(({ event }) => event.id === poison)) {
          failures -= 1;
          throw new Error('transient');
        }
        for (const { event } of events) committed.add(event.id);
        return () => afterwards.push(...events.map(({ event }) => event.id));
      },
    });
    const settled = async () => {
      const info = await jsm.consumers.info(topicStream('recording').EVENTS_STREAM, durable);
      return info.num_ack_pending === 0 && info.num_pending === 0;
    };
    await consumer.start();
    await waitFor(async () => committed.size === ids.length && (await settled()), 10_000);
    await consumer.stop();
    expect([...committed].sort()).toEqual([...ids].sort());
    // Only commits that resolved ran their function, once each: the poison's two failures did not.
    expect([...afterwards].sort()).toEqual([...ids].sort());
    const processed = await db.$queryRawUnsafe<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1',
      durable,
    );
    expect(processed[0]?.n).toBe(0);
  });
});

describe('metrics', () => {
  it('observes the publish lag of each row, counts the rows waiting and samples a consumer when scraped', async () => {
    await db.$transaction((tx) => enqueueEvent(tx, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: statusChanged(9) }));
    const waiting = new OutboxMetrics(db, 'metrics-spec');
    waiting.start();
    let text = await metricsText();
    waiting.stop();
    expect(text).toContain('outbox_events_waiting{source="metrics-spec"} 1');

    const before = /outbox_publish_lag_seconds_count\{source="wallet"\} (\d+)/.exec(text)?.[1] ?? '0';
    expect(await relayOf().drain()).toBe(1);
    text = await metricsText();
    expect(text).toContain(`outbox_publish_lag_seconds_count{source="wallet"} ${Number(before) + 1}`);

    const durable = `metrics-${runId}`;
    await ensureDurableConsumer(jsm, {
      stream: stream.EVENTS_STREAM,
      durable,
      filterSubject: `${stream.EVENTS_SUBJECT_PREFIX}.>`,
      ackWaitMs: 30_000,
    });
    const messages = (await jsm.streams.info(stream.EVENTS_STREAM)).state.messages;
    const unwatch = watchConsumer(jsm, stream.EVENTS_STREAM, durable);
    text = await metricsText();
    unwatch();
    expect(text).toContain(`jetstream_consumer_pending_messages{consumer="${durable}"} ${messages}`);
    expect(text).toContain(`jetstream_consumer_redelivered_messages{consumer="${durable}"} 0`);
  });
});

describe('the event stream', () => {
  it('is created by a service when missing and never changed by one; the operator command brings it up to date', async () => {
    const own = isolatedEventStream(newRunId());
    const config = { stream: own.EVENTS_STREAM, subjectPrefix: own.EVENTS_SUBJECT_PREFIX };
    const minute = 60_000_000_000;
    try {
      expect(await ensureEventStream(jsm, config)).toEqual([]);
      // Changed behind the services' back (or by an older release): they report it and leave it.
      await jsm.streams.update(config.stream, { duplicate_window: minute });
      const differences = await ensureEventStream(jsm, config);
      expect(differences).toEqual([expect.stringContaining('duplicate_window')]);
      expect((await jsm.streams.info(config.stream)).config.duplicate_window).toBe(minute);
      const warnings: (string | undefined)[] = [];
      warnOfStreamDifferences({ ...logger, warn: (_object, message) => void warnings.push(message) }, config, differences);
      expect(warnings).toEqual([expect.stringContaining(ENSURE_EVENT_STREAM_COMMAND)]);

      expect(await updateEventStream(jsm, config)).toBe('updated');
      expect(await ensureEventStream(jsm, config)).toEqual([]);
      expect(await updateEventStream(jsm, config)).toBe('unchanged');
    } finally {
      await own.destroy();
    }
  });
});

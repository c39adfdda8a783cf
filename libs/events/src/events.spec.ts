import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent, PortfolioWalletEventPayload } from '@service/contracts';
import { isolatedEventStream, migratedSchema, newRunId, TEST_DATABASE_URL, TEST_NATS_URL, type IsolatedSchema, type IsolatedStream } from '@service/testing';
import { DurableConsumer, enqueueEvent, OutboxRelay, PgPoolSql, type SqlExecutor } from './index.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const runId = newRunId();
let schema: IsolatedSchema;
let stream: IsolatedStream;
let db: PgPoolSql;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;

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
});

const relayOf = () =>
  new OutboxRelay({ source: 'wallet', db, js, jsm, logger, pollIntervalMs: 50, ...streamConfig() });
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
  return { event: 'portfolio_wallet.status_changed', observedAt: '2026-11-21T10:00:00.000Z', walletId, wallet: { id: walletId, status: 'idle' } };
}

describe('outbox and relay', () => {
  it('publishes committed events once, with the outbox id as Nats-Msg-Id, and never rolled-back ones', async () => {
    const relay = relayOf();
    await relay.start();
    const committed = await db.$transaction((tx) =>
      enqueueEvent(tx, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: statusChanged(1) }),
    );
    await expect(
      db.$transaction(async (tx) => {
        await enqueueEvent(tx, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: statusChanged(2) });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    relay.wake();
    await waitFor(async () => (await jsm.streams.info(stream.EVENTS_STREAM)).state.messages === 1);
    await relay.stop();

    const message = await jsm.streams.getMessage(stream.EVENTS_STREAM, { seq: 1 });
    expect(message?.header.get('Nats-Msg-Id')).toBe(committed);
    expect(message?.subject).toBe(`${stream.EVENTS_SUBJECT_PREFIX}.wallet.portfolio_wallet.status_changed`);
    expect(message?.json<DomainEvent>()).toMatchObject({ id: committed, orgId: 'org_a', source: 'wallet', payload: statusChanged(1) });
    const [row] = await db.$queryRawUnsafe<{ published_at: Date | null }[]>('SELECT published_at FROM outbox_events WHERE id = $1', committed);
    expect(row?.published_at).toBeInstanceOf(Date);
  });

  it('loses nothing and duplicates nothing when the relay dies between publish and marking', async () => {
    const id = await db.$transaction((tx) =>
      enqueueEvent(tx, { type: 'portfolio_wallet.status_changed', orgId: 'org_a', payload: statusChanged(3) }),
    );
    const before = (await jsm.streams.info(stream.EVENTS_STREAM)).state.messages;
    expect(await relayOf().drain()).toBe(1);
    // The crashed relay had published but not marked the row: the next relay publishes it again.
    await db.$executeRawUnsafe('UPDATE outbox_events SET published_at = NULL WHERE id = $1', id);
    expect(await relayOf().drain()).toBe(1);
    expect((await jsm.streams.info(stream.EVENTS_STREAM)).state.messages).toBe(before + 1);
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
    await consumer.start();
    const count = async () => (await db.$queryRawUnsafe<{ c: number }[]>('SELECT count(*)::int AS c FROM applied'))[0]?.c ?? 0;
    await waitFor(async () => (await count()) === 2, 10_000);
    await consumer.stop();

    // Delivered again from the start (as after a lost ack): nothing is applied twice.
    await jsm.consumers.delete(stream.EVENTS_STREAM, `test-${runId}`);
    const again = consumerOf(async (event, tx) => {
      await tx.$executeRawUnsafe('INSERT INTO applied VALUES ($1::uuid, 0)', event.id);
    });
    await again.start();
    await waitFor(async () => (await jsm.consumers.info(stream.EVENTS_STREAM, `test-${runId}`)).num_ack_pending === 0 &&
      (await jsm.consumers.info(stream.EVENTS_STREAM, `test-${runId}`)).num_pending === 0);
    await again.stop();
    expect(await count()).toBe(2);
  });
});

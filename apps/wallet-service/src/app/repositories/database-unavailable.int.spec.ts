import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PrismaPg } from '@prisma/adapter-pg';
import { toRpcError, unavailabilityOf } from '@service/errors';
import { prismaAdapter } from '@service/service-runtime';
import { createPool } from '@service/sql';
import { eventually, freePort, migratedSchema, newRunId, type PrivatePostgres, rejectionOf, startPrivatePostgres } from '@service/testing';
import pg from 'pg';
import { PrismaClient } from '../../generated/prisma/client.js';

/**
 * The errors Prisma 7 (driver adapter `@prisma/adapter-pg`) and the service's `pg` pools throw
 * when PostgreSQL is unavailable, raised for real on a cluster of this spec's own (refusing,
 * terminating sessions, killed), are answered 503 retryable; constraint violations, write
 * conflicts and expired transactions stay `internal_error`.
 */
let cluster: PrivatePostgres;
let schema: string;
let prisma: PrismaClient;
const clients: PrismaClient[] = [];

const clientOf = (adapter: PrismaPg) => {
  const client = new PrismaClient({ adapter });
  clients.push(client);
  return client;
};

beforeAll(async () => {
  cluster = await startPrivatePostgres();
  schema = (await migratedSchema('wallet-service', newRunId(), cluster.url)).schema;
  prisma = clientOf(prismaAdapter(cluster.url, schema));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect().catch(() => undefined)));
  await cluster?.stop();
});

/** The error's own code (Prisma's P-code, a socket's, or none), what the service answers, and the reason it logs. */
const outcome = (error: unknown) => ({
  code: (error as { code?: unknown }).code,
  answer: toRpcError(error).code,
  reason: unavailabilityOf(error),
});
const UNAVAILABLE = { answer: 'service_temporarily_unavailable', reason: expect.any(String) };
const raise = (sqlstate: string) => `DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '${sqlstate}'; END $$`;
const sleeping = (seconds: number) => `SELECT 1 AS slept FROM pg_sleep(${seconds})`;
/** Sessions other than the asking one running `pg_sleep(5)`. */
const SLEEPERS = `SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()`;

function latch(): { open: () => void; opened: Promise<void> } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('errors of an unavailable database, through Prisma', () => {
  it('a server that refuses connections: P1001 on a model and a transaction, P2010 around DatabaseNotReachable on raw SQL', async () => {
    const refusing = clientOf(prismaAdapter(`postgresql://postgres@127.0.0.1:${await freePort()}/postgres`, schema));
    expect(outcome(await rejectionOf(() => refusing.processedEvent.findFirst()))).toEqual({
      ...UNAVAILABLE,
      code: 'P1001',
      reason: 'P1001',
    });
    expect(outcome(await rejectionOf(() => refusing.$transaction((tx) => tx.processedEvent.count())))).toEqual({
      ...UNAVAILABLE,
      code: 'P1001',
      reason: 'P1001',
    });
    expect(outcome(await rejectionOf(() => refusing.$queryRawUnsafe('SELECT 1')))).toEqual({
      ...UNAVAILABLE,
      code: 'P2010',
      reason: 'DatabaseNotReachable',
    });
    expect(toRpcError(await rejectionOf(() => refusing.processedEvent.findFirst())).message).not.toMatch(/127\.0\.0\.1/);
  });

  it("no pooled connection free in time: pg-pool's timeout as it is, and P2028 when a transaction cannot start within maxWait", async () => {
    const single = clientOf(
      new PrismaPg(
        { connectionString: cluster.url, options: `-c search_path="${schema}"`, max: 1, connectionTimeoutMillis: 200 },
        { schema },
      ),
    );
    // The pool's one connection is opened (and left idle) first: on a busy machine a fresh connect
    // can itself take longer than the 200 ms under test, and the holder must not be the one to time out.
    await eventually(
      () =>
        single.$queryRawUnsafe('SELECT 1').then(
          () => true,
          () => false,
        ),
      (opened) => opened,
      10_000,
    );
    const started = latch();
    const release = latch();
    const holding = single.$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT 1');
      started.open();
      await release.opened;
    });
    // A holder that fails fails the test at once instead of leaving it waiting for the latch.
    await Promise.race([started.opened, holding]);
    expect(outcome(await rejectionOf(() => single.$transaction((tx) => tx.processedEvent.count(), { maxWait: 100 })))).toEqual({
      ...UNAVAILABLE,
      code: 'P2028',
      reason: 'P2028 Unable to start a transaction in the given time',
    });
    expect(outcome(await rejectionOf(() => single.processedEvent.findFirst()))).toEqual({
      ...UNAVAILABLE,
      code: undefined,
      reason: 'timeout exceeded when trying to connect',
    });
    release.open();
    await holding;
  });

  it('a session the server terminates (57P01) and a server in recovery (57P03): P2010 (raw SQL) or P2039 (a model) around the SQLSTATE', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    const holder = new pg.Client({ connectionString: cluster.url });
    await Promise.all([admin.connect(), holder.connect()]);
    const terminated = async (sessions: string) => {
      const terminate = `SELECT count(pg_terminate_backend(pid))::int AS n FROM (${sessions}) sessions`;
      await eventually(
        async () => (await admin.query<{ n: number }>(terminate)).rows[0]?.n,
        (n) => n === 1,
      );
    };
    try {
      const sleeper = rejectionOf(() => prisma.$transaction((tx) => tx.$queryRawUnsafe(sleeping(5))));
      await terminated(SLEEPERS);
      expect(outcome(await sleeper)).toEqual({ ...UNAVAILABLE, code: 'P2010', reason: '57P01' });
      // A model write waiting for the row lock of an insert not yet committed (by another
      // session: inside a transaction, pg_stat_activity keeps showing its first look).
      const event = { consumer: 'spec', eventId: randomUUID() };
      await holder.query(
        `BEGIN; INSERT INTO "${schema}".processed_events (consumer, event_id) VALUES ('${event.consumer}', '${event.eventId}')`,
      );
      const waiting = rejectionOf(() => prisma.processedEvent.create({ data: event }));
      await terminated(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'`);
      expect(outcome(await waiting)).toEqual({ ...UNAVAILABLE, code: 'P2039', reason: '57P01' });
    } finally {
      await Promise.all([admin.end(), holder.end()]);
    }
    expect(outcome(await rejectionOf(() => prisma.$executeRawUnsafe(raise('57P03'))))).toEqual({
      ...UNAVAILABLE,
      code: 'P2010',
      reason: '57P03',
    });
  });

  it('a constraint violation, a write conflict and an expired transaction stay internal_error', async () => {
    const event = { consumer: 'spec', eventId: randomUUID() };
    await prisma.processedEvent.create({ data: event });
    const internal = { answer: 'internal_error', reason: undefined };
    expect(outcome(await rejectionOf(() => prisma.processedEvent.create({ data: event })))).toEqual({ ...internal, code: 'P2002' });
    const duplicate = () =>
      prisma.$executeRawUnsafe('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid)', event.consumer, event.eventId);
    expect(outcome(await rejectionOf(duplicate))).toEqual({ ...internal, code: 'P2010' });
    expect(outcome(await rejectionOf(() => prisma.$executeRawUnsafe(raise('40001'))))).toEqual({ ...internal, code: 'P2010' });
    const slow = () =>
      prisma.$transaction(async (tx) => tx.$queryRawUnsafe(sleeping(0.3)).then(() => tx.processedEvent.count()), { timeout: 100 });
    expect(outcome(await rejectionOf(slow))).toEqual({ ...internal, code: 'P2028' });
  });

  it('a killed postmaster: the transaction in flight loses its connection, idle `pg` pool connections get 57P01, then connecting is refused', async () => {
    const idleErrors: unknown[] = [];
    const pool = createPool({ connectionString: cluster.url, schema, max: 2, onIdleError: (error) => idleErrors.push(error) });
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const inFlight = rejectionOf(() => prisma.$transaction((tx) => tx.$queryRawUnsafe(sleeping(5)), { timeout: 10_000 }));
    await eventually(
      () => pool.query(SLEEPERS),
      (result) => result.rowCount === 1,
    );
    cluster.kill();

    expect(outcome(await inFlight)).toEqual({ ...UNAVAILABLE, code: undefined, reason: 'Connection terminated unexpectedly' });
    await eventually(
      () => idleErrors.length,
      (count) => count === 2,
    );
    expect(idleErrors.map((error) => [(error as { code?: string }).code, unavailabilityOf(error)])).toEqual([
      ['57P01', '57P01'],
      ['57P01', '57P01'],
    ]);
    expect(outcome(await rejectionOf(() => pool.query('SELECT 1')))).toEqual({
      ...UNAVAILABLE,
      code: 'ECONNREFUSED',
      reason: 'ECONNREFUSED',
    });
    expect(outcome(await rejectionOf(() => prisma.processedEvent.findFirst()))).toEqual({ ...UNAVAILABLE, code: 'P1001', reason: 'P1001' });
    await pool.end();
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS, type DomainEvent } from '@service/contracts';
import type { SqlExecutor } from '@service/sql';
import { type IsolatedSchema, migratedSchema, newRunId, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { pino } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { deliveryBody } from '../domain/delivery-body.js';
import { newSigningSecret, SecretBox } from '../domain/secret-box.js';
import { WebhookSender } from '../receivers/sender.js';
import { DeliveryDispatcher } from '../workers/delivery-dispatcher.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { type AttemptRecord, type ClaimedDelivery, claimDue, type Completion, recordAttempt, recordAttempts } from './delivery-store.js';
import { fanOut, UnsubscribedPairs } from './fan-out.js';
import { DispatchSql } from './pg-sql.js';

// Real PostgreSQL, through the dispatcher's own pool (statements prepared per connection, so the
// later calls of each test run on PostgreSQL's generic plans, as in production).
const runId = newRunId();
let schema: IsolatedSchema;
let db: DispatchSql;
let admin: pg.Pool;

beforeAll(async () => {
  schema = await migratedSchema('webhook-service', runId);
  db = new DispatchSql({ DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema.schema } as WebhookConfig, pino({ level: 'silent' }));
  admin = new pg.Pool({ connectionString: TEST_DATABASE_URL, options: `-c search_path="${schema.schema}"`, max: 4 });
});

afterAll(async () => {
  await db?.end();
  await admin?.end();
  await schema?.drop();
});

beforeEach(async () => {
  await admin.query('TRUNCATE emissions, deliveries, registrations, processed_events');
});

const LEASE_MS = 60_000;
/** A lease the tests wait out; long enough that the checks made while it holds run inside it. */
const SHORT_LEASE_MS = 1_000;
const CAP = 16;
/** The per-endpoint cap, and an organization cap that the tests of other things never reach. */
const CAPS = { perEndpoint: CAP, perOrganization: 1_000 };

async function addRegistration(options: { org?: string; family?: string; events?: string[]; deleted?: boolean } = {}): Promise<string> {
  const id = randomUUID();
  await admin.query(
    `INSERT INTO registrations (id, org_id, family, url, events, secret_enc, deleted_at)
     VALUES ($1, $2, $3, $4, $5, 'sealed', $6)`,
    [
      id,
      options.org ?? 'org_a',
      options.family ?? 'webhooks',
      `http://127.0.0.1:9/${id}`,
      options.events ?? ['t'],
      options.deleted ? new Date() : null,
    ],
  );
  return id;
}

/** `count` due deliveries, the oldest first in id order, due `ageMs` ago and one millisecond apart. */
async function addDue(registrationId: string, count: number, ageMs = 60_000): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(
    `INSERT INTO deliveries (id, org_id, family, registration_id, source_event_id, event_type, body, status, next_attempt_at)
     SELECT gen_random_uuid(), (SELECT org_id FROM registrations WHERE id = $1), 'webhooks', $1, gen_random_uuid(), 't', '{"n":' || i || '}', 'pending',
            now() - make_interval(secs => ($2 - i)::double precision / 1000)
       FROM generate_series(1, $3) AS i
     RETURNING id::text AS id`,
    [registrationId, ageMs, count],
  );
  return rows.map((row) => row.id);
}

/** Marks deliveries as in flight with another replica (live lease, attempt counted). */
async function leaseElsewhere(ids: string[]): Promise<void> {
  await admin.query(
    `UPDATE deliveries SET lease_until = now() + interval '1 minute', attempt_count = attempt_count + 1 WHERE id = ANY($1::uuid[])`,
    [ids],
  );
}

function countBy(deliveries: ClaimedDelivery[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const delivery of deliveries) counts.set(delivery.registration_id, (counts.get(delivery.registration_id) ?? 0) + 1);
  return counts;
}

async function delivery(id: string) {
  const { rows } = await admin.query<{
    status: string;
    attempt_count: number;
    next_attempt_at: Date | null;
    lease_until: Date | null;
    delivered_at: Date | null;
    last_error: string | null;
  }>('SELECT status, attempt_count, next_attempt_at, lease_until, delivered_at, last_error FROM deliveries WHERE id = $1', [id]);
  return rows[0]!;
}

async function emissionsOf(id: string) {
  const { rows } = await admin.query<{
    id: string;
    attempt_number: number;
    completed_at: Date | null;
    response_status: number | null;
    error_message: string | null;
  }>(
    'SELECT id::text AS id, attempt_number, completed_at, response_status, error_message FROM emissions WHERE delivery_id = $1 ORDER BY attempt_number',
    [id],
  );
  return rows;
}

const ok = (delivery: ClaimedDelivery): AttemptRecord => ({ delivery, responseStatus: 200, responseMs: 3, error: null });
const answered = (delivery: ClaimedDelivery, status: number): AttemptRecord => ({
  delivery,
  responseStatus: status,
  responseMs: 3,
  error: `HTTP ${status}`,
});

describe('claimDue', () => {
  it('claims oldest first and at most the per-endpoint cap per registration across a large backlog of several', async () => {
    const [slow, b, c, d] = [await addRegistration(), await addRegistration(), await addRegistration(), await addRegistration()];
    // A slow receiver: its slots all taken by another replica, 3,000 more due, older than the rest.
    const slowRows = await addDue(slow as string, 3_016, 90_000);
    await leaseElsewhere(slowRows.slice(0, CAP));
    const bRows = await addDue(b as string, 200, 60_000);
    await leaseElsewhere(bRows.slice(0, 6));
    const cRows = await addDue(c as string, 100, 30_000);
    await addDue(d as string, 3, 10_000);

    const first = await claimDue(db, 64, CAPS, LEASE_MS);
    const counts = countBy(first.deliveries);
    expect(counts.get(slow as string)).toBeUndefined();
    expect(counts.get(b as string)).toBe(CAP - 6);
    expect(counts.get(c as string)).toBe(CAP);
    expect(counts.get(d as string)).toBe(3);
    expect(first.more).toBe(true);
    // The oldest rows not in flight, each with a lease, its attempt counted and an emission open.
    expect(new Set(first.deliveries.filter((x) => x.registration_id === b).map((x) => x.id))).toEqual(new Set(bRows.slice(6, CAP)));
    expect(new Set(first.deliveries.filter((x) => x.registration_id === c).map((x) => x.id))).toEqual(new Set(cRows.slice(0, CAP)));
    for (const claimed of first.deliveries) {
      expect(claimed.attempt_count).toBe(1);
      expect((await delivery(claimed.id)).lease_until!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS / 2);
      expect(await emissionsOf(claimed.id)).toEqual([
        expect.objectContaining({ id: claimed.emission_id, attempt_number: 1, completed_at: null }),
      ]);
    }

    // Every registration with due rows is at its cap now: nothing more, but rows are still waiting.
    const second = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(second.deliveries).toEqual([]);
    expect(second.more).toBe(true);
  });

  it('takes the rows of other registrations in the same claim as those of a registration with a backlog', async () => {
    const [busy, other] = [await addRegistration(), await addRegistration()];
    await addDue(busy as string, 5_000, 60_000);
    const otherRows = await addDue(other as string, 5, 1_000);
    const first = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(countBy(first.deliveries)).toEqual(
      new Map([
        [busy, CAP],
        [other, 5],
      ]),
    );
    expect(new Set(first.deliveries.filter((x) => x.registration_id === other).map((x) => x.id))).toEqual(new Set(otherRows));
    expect(first.more).toBe(true);
    // The backlog's registration is at its cap: nothing more until one of its attempts ends.
    expect(await claimDue(db, 64, CAPS, LEASE_MS)).toEqual({ deliveries: [], more: true });
  });

  it("frees a registration's slots for the attempts whose receiver answered, before they are written, and never claims those again", async () => {
    const busy = await addRegistration();
    await addDue(busy, CAP + 10);
    const first = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(first.deliveries).toHaveLength(CAP);
    expect(await claimDue(db, 64, CAPS, LEASE_MS)).toEqual({ deliveries: [], more: true });
    const answered = first.deliveries.slice(0, 3).map((claimed) => claimed.id);
    const second = await claimDue(db, 64, CAPS, LEASE_MS, answered);
    expect(second.deliveries).toHaveLength(3);
    const claimedTwice = second.deliveries.filter((claimed) => first.deliveries.some((earlier) => earlier.id === claimed.id));
    expect(claimedTwice).toEqual([]);
    // Another replica does not know they were answered: for it they count until written.
    expect((await claimDue(db, 64, CAPS, LEASE_MS)).deliveries).toEqual([]);
  });

  it('passes over registrations whose rows are all due later, and claims none of them', async () => {
    const [later, now] = [await addRegistration(), await addRegistration()];
    await addDue(later as string, 2_000);
    await admin.query(
      `UPDATE deliveries SET status = 'retry_scheduled', next_attempt_at = now() + interval '1 hour' WHERE registration_id = $1`,
      [later],
    );
    const nowRows = await addDue(now as string, 3);
    const claim = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(new Set(claim.deliveries.map((x) => x.id))).toEqual(new Set(nowRows));
    expect(claim.more).toBe(false);
  });

  it('claims no more than the limit and says when nothing is left behind', async () => {
    const a = await addRegistration();
    await addDue(a, 10);
    const limited = await claimDue(db, 4, CAPS, LEASE_MS);
    expect(limited.deliveries).toHaveLength(4);
    expect(limited.more).toBe(true);
    const rest = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(rest.deliveries).toHaveLength(6);
    expect(rest.more).toBe(false);
    expect(await claimDue(db, 64, CAPS, LEASE_MS)).toEqual({ deliveries: [], more: false });
  });

  it('lets replicas claiming at once never take the same delivery nor, together, more than the cap', async () => {
    const registrations = [await addRegistration(), await addRegistration(), await addRegistration()];
    for (const registration of registrations) await addDue(registration, 500);
    for (let round = 0; round < 5; round += 1) {
      await admin.query('UPDATE deliveries SET lease_until = NULL');
      const claims = await Promise.all([0, 1, 2, 3].map(() => claimDue(db, 20, CAPS, LEASE_MS)));
      const all = claims.flatMap((claim) => claim.deliveries);
      expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
      for (const count of countBy(all).values()) expect(count).toBeLessThanOrEqual(CAP);
    }
  });

  it("caps an organization's attempts in flight across its registrations and replicas, and claims another organization's delivery in the same round", async () => {
    const PER_ORGANIZATION = 20;
    const caps = { perEndpoint: CAP, perOrganization: PER_ORGANIZATION };
    // One tenant with three hanging receivers and a large backlog, older than anything else; five of
    // its attempts are in flight with another replica.
    const hog = [
      await addRegistration({ org: 'org_hog' }),
      await addRegistration({ org: 'org_hog' }),
      await addRegistration({ org: 'org_hog' }),
    ];
    const hogRows = (await Promise.all(hog.map((registration) => addDue(registration, 200, 90_000)))).flat();
    await leaseElsewhere(hogRows.slice(0, 5));
    const small = await addRegistration({ org: 'org_small' });
    const [smallRow] = await addDue(small, 1, 1_000);

    const first = await claimDue(db, 64, caps, LEASE_MS);
    const hogClaimed = first.deliveries.filter((claimed) => hog.includes(claimed.registration_id));
    expect(hogClaimed).toHaveLength(PER_ORGANIZATION - 5);
    expect(first.deliveries.filter((claimed) => claimed.registration_id === small).map((claimed) => claimed.id)).toEqual([smallRow]);
    expect(first.more).toBe(true);

    // The tenant is at its cap: nothing more of it, however many slots are free; the other
    // organization's next delivery goes at once.
    expect(await claimDue(db, 64, caps, LEASE_MS)).toEqual({ deliveries: [], more: true });
    const [next] = await addDue(small, 1, 10);
    expect((await claimDue(db, 64, caps, LEASE_MS)).deliveries.map((claimed) => claimed.id)).toEqual([next]);
    // One of its attempts answered: one slot of its own again.
    const answered = hogClaimed.slice(0, 1).map((claimed) => claimed.id);
    expect(
      (await claimDue(db, 64, caps, LEASE_MS, answered)).deliveries.filter((claimed) => hog.includes(claimed.registration_id)),
    ).toHaveLength(1);
  });

  it('takes the organizations with due rows in turn when there are fewer free slots than due rows', async () => {
    const [a, b, c] = [
      await addRegistration({ org: 'org_a' }),
      await addRegistration({ org: 'org_b' }),
      await addRegistration({ org: 'org_c' }),
    ];
    await addDue(a, 50, 90_000);
    await addDue(b, 50, 60_000);
    await addDue(c, 2, 1_000);
    // Oldest first would give all six to org_a: one turn each, then a second one each.
    expect(countBy((await claimDue(db, 6, CAPS, LEASE_MS)).deliveries)).toEqual(
      new Map([
        [a, 2],
        [b, 2],
        [c, 2],
      ]),
    );
    // Within a turn the oldest go first: org_c has no rows left, org_a's are older than org_b's.
    expect(countBy((await claimDue(db, 3, CAPS, LEASE_MS)).deliveries)).toEqual(
      new Map([
        [a, 2],
        [b, 1],
      ]),
    );
  });

  it("lets replicas claiming at once take, together, no more than an organization's cap", async () => {
    const caps = { perEndpoint: CAP, perOrganization: 20 };
    const registrations = [
      await addRegistration({ org: 'org_hog' }),
      await addRegistration({ org: 'org_hog' }),
      await addRegistration({ org: 'org_hog' }),
    ];
    for (const registration of registrations) await addDue(registration, 100);
    for (let round = 0; round < 5; round += 1) {
      await admin.query('UPDATE deliveries SET lease_until = NULL');
      const claims = await Promise.all([0, 1, 2, 3].map((replica) => claimDue(db, replica === 0 ? 64 : 7, caps, LEASE_MS)));
      const all = claims.flatMap((claim) => claim.deliveries);
      expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
      expect(all.length).toBeGreaterThan(0);
      expect(all.length).toBeLessThanOrEqual(caps.perOrganization);
    }
  });

  it('flags a delivery whose registration was deleted after it was recorded, so it is failed unsent', async () => {
    const live = await addRegistration();
    const gone = await addRegistration({ deleted: true });
    const [liveId] = await addDue(live, 1);
    const [goneId] = await addDue(gone, 1);
    const claimed = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries;
    const flags = new Map(claimed.map((row) => [row.id, row.registration_deleted]));
    expect(flags.get(liveId as string)).toBe(false);
    expect(flags.get(goneId as string)).toBe(true);
  });

  it('takes a delivery whose lease ran out (its replica died) again, with a new attempt number', async () => {
    const a = await addRegistration();
    const [id] = await addDue(a, 1);
    // A lease long enough that the second claim surely runs inside it on a slow CI machine.
    const [first] = (await claimDue(db, 64, CAPS, SHORT_LEASE_MS)).deliveries;
    expect(first?.id).toBe(id);
    expect((await claimDue(db, 64, CAPS, SHORT_LEASE_MS)).deliveries).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, SHORT_LEASE_MS + 100));
    const [again] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries;
    expect(again).toMatchObject({ id, attempt_count: 2 });
    expect(again?.emission_id).not.toBe(first?.emission_id);
  });
});

describe('recordAttempts', () => {
  it('writes a batch of outcomes in one statement, each as its own statement did before', async () => {
    const a = await addRegistration();
    await addDue(a, 5);
    const claimed = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries;
    const [done, retried, failed, stale, cancelled] = claimed as [
      ClaimedDelivery,
      ClaimedDelivery,
      ClaimedDelivery,
      ClaimedDelivery,
      ClaimedDelivery,
    ];
    // The registration's deletion cancelled this one while it was in flight.
    await admin.query(`UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'deleted' WHERE id = $1`, [
      cancelled.id,
    ]);

    const skipped = await recordAttempts(db, [
      { attempt: ok(done), completion: { kind: 'completed' } },
      { attempt: answered(retried, 503), completion: { kind: 'retry', delayMs: 60_000 } },
      { attempt: answered(failed, 400), completion: { kind: 'failed', disableRegistration: false } },
      // A replica whose lease ran out, writing after a newer attempt was counted: changes nothing.
      { attempt: answered({ ...stale, attempt_count: stale.attempt_count - 1 }, 503), completion: { kind: 'retry', delayMs: 1 } },
      { attempt: answered(cancelled, 503), completion: { kind: 'retry', delayMs: 1 } },
    ]);
    expect(skipped).toEqual([]);

    expect(await delivery(done.id)).toMatchObject({
      status: 'completed',
      next_attempt_at: null,
      lease_until: null,
      last_error: null,
      delivered_at: expect.any(Date),
    });
    const retry = await delivery(retried.id);
    expect(retry).toMatchObject({ status: 'retry_scheduled', lease_until: null, last_error: 'HTTP 503', delivered_at: null });
    expect(retry.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await delivery(failed.id)).toMatchObject({ status: 'failed', next_attempt_at: null, lease_until: null, last_error: 'HTTP 400' });
    expect(await delivery(stale.id)).toMatchObject({ status: 'pending', attempt_count: 1, lease_until: expect.any(Date) });
    expect(await delivery(cancelled.id)).toMatchObject({ status: 'failed', last_error: 'deleted', next_attempt_at: null });
    expect(await emissionsOf(done.id)).toEqual([
      expect.objectContaining({ completed_at: expect.any(Date), response_status: 200, error_message: null }),
    ]);
    expect(await emissionsOf(retried.id)).toEqual([
      expect.objectContaining({ completed_at: expect.any(Date), response_status: 503, error_message: 'HTTP 503' }),
    ]);
  });

  it('still completes a delivery cancelled in flight when the receiver took it (2xx)', async () => {
    const a = await addRegistration();
    await addDue(a, 1);
    const [claimed] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery];
    await admin.query(`UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1`, [claimed.id]);
    await recordAttempts(db, [{ attempt: ok(claimed), completion: { kind: 'completed' } }]);
    expect(await delivery(claimed.id)).toMatchObject({ status: 'completed', last_error: null });
  });

  it('never waits on a row another transaction holds: it reports it, and records it once released', async () => {
    const a = await addRegistration();
    await addDue(a, 2);
    const [held, free] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery, ClaimedDelivery];
    const holder = await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM deliveries WHERE id = $1 FOR UPDATE', [held.id]);
      const finished = [held, free].map((claimed) => ({ attempt: ok(claimed), completion: { kind: 'completed' } as Completion }));
      const skipped = await recordAttempts(db, finished);
      expect(skipped.map((entry) => entry.attempt.delivery.id)).toEqual([held.id]);
      expect((await delivery(free.id)).status).toBe('completed');
      expect((await delivery(held.id)).status).toBe('pending');
      expect(await emissionsOf(held.id)).toEqual([expect.objectContaining({ completed_at: null })]);
      await holder.query('COMMIT');
      expect(await recordAttempts(db, skipped)).toEqual([]);
      expect((await delivery(held.id)).status).toBe('completed');
    } finally {
      holder.release();
    }
  });

  it('on 410 deletes the registration and cancels what it still had pending', async () => {
    const a = await addRegistration();
    const other = await addRegistration();
    const [, ...pending] = await addDue(a, 3);
    // Claimed before the other registration has a due row: the claim takes organizations in
    // turn, and rows made in the same millisecond have no order between organizations.
    const [gone] = (await claimDue(db, 1, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery];
    expect(gone.registration_id).toBe(a);
    const [untouched] = await addDue(other, 1);
    await recordAttempt(db, answered(gone, 410), { kind: 'failed', disableRegistration: true });
    expect(await delivery(gone.id)).toMatchObject({ status: 'failed', last_error: 'HTTP 410', lease_until: null });
    for (const id of pending)
      expect(await delivery(id)).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: expect.stringContaining('410') });
    expect((await delivery(untouched!)).status).toBe('pending');
    const { rows } = await admin.query('SELECT deleted_at FROM registrations WHERE id = $1', [a]);
    expect(rows[0].deleted_at).toEqual(expect.any(Date));
  });
});

/** Counts the record statements that reach the database. */
function counting(inner: DispatchSql): DispatchSql & { writes: number } {
  const wrapper = Object.create(inner) as DispatchSql & { writes: number };
  wrapper.writes = 0;
  wrapper.$queryRawUnsafe = async <T>(query: string, ...values: unknown[]): Promise<T> => {
    wrapper.writes += 1;
    return inner.$queryRawUnsafe<T>(query, ...values);
  };
  return wrapper;
}

describe('AttemptRecorder', () => {
  it('writes attempts that end together in one statement, and one ending alone at once', async () => {
    const a = await addRegistration();
    await addDue(a, 11);
    const [alone, ...together] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery, ...ClaimedDelivery[]];
    const sql = counting(db);
    const recorder = new AttemptRecorder(sql, { maxBatch: 128 });
    // Attempts ending in one turn.
    await Promise.all(together.map((claimed) => recorder.record(ok(claimed), { kind: 'completed' })));
    expect(sql.writes).toBe(1);
    const started = Date.now();
    await recorder.record(ok(alone), { kind: 'completed' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(sql.writes).toBe(2);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM deliveries WHERE status = 'completed'`);
    expect(rows[0].n).toBe(11);
  });

  it('writes the attempts that end while a batch is being written together in the next one, without waiting for more', async () => {
    const a = await addRegistration();
    await addDue(a, 4);
    const [first, ...later] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery, ...ClaimedDelivery[]];
    const sql = counting(db);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated = Object.assign(Object.create(sql) as typeof sql, {
      $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => {
        if (sql.writes === 0) await gate;
        return sql.$queryRawUnsafe<T>(query, ...values);
      },
    });
    const recorder = new AttemptRecorder(gated, { maxBatch: 128 });
    const firstWritten = recorder.record(ok(first), { kind: 'completed' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first batch is being written (held at the gate); these end one by one meanwhile.
    const laterWritten: Promise<void>[] = [];
    for (const claimed of later) {
      laterWritten.push(recorder.record(ok(claimed), { kind: 'completed' }));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    release();
    await Promise.all([firstWritten, ...laterWritten]);
    expect(sql.writes).toBe(2);
    for (const claimed of [first, ...later]) expect((await delivery(claimed.id)).status).toBe('completed');
  });

  it('loses nothing when the process dies before the write: the delivery is attempted again once its lease ran out', async () => {
    const a = await addRegistration();
    const [id] = await addDue(a, 1);
    const [first] = (await claimDue(db, 64, CAPS, SHORT_LEASE_MS)).deliveries as [ClaimedDelivery];
    // A database that never answers stands for a process killed before the batch went out.
    const dead: SqlExecutor & { $transaction: never } = {
      $queryRawUnsafe: () => new Promise<never>(() => undefined),
      $executeRawUnsafe: () => new Promise<never>(() => undefined),
      $transaction: undefined as never,
    };
    void new AttemptRecorder(dead as never, { maxBatch: 128 }).record(ok(first), { kind: 'completed' });

    // Not final, not lost: still pending and leased, its emission open.
    expect(await delivery(id!)).toMatchObject({ status: 'pending', attempt_count: 1, lease_until: expect.any(Date) });
    expect((await claimDue(db, 64, CAPS, LEASE_MS)).deliveries).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, SHORT_LEASE_MS + 100));

    const [again] = (await claimDue(db, 64, CAPS, LEASE_MS)).deliveries as [ClaimedDelivery];
    expect(again).toMatchObject({ id, attempt_count: 2 });
    await new AttemptRecorder(db, { maxBatch: 128 }).record(ok(again), { kind: 'completed' });
    expect(await delivery(id!)).toMatchObject({ status: 'completed', attempt_count: 2, lease_until: null });
    const emissions = await emissionsOf(id!);
    expect(emissions).toEqual([
      expect.objectContaining({ attempt_number: 1, completed_at: null }),
      expect.objectContaining({ attempt_number: 2, completed_at: expect.any(Date), response_status: 200 }),
    ]);
  });
});

describe('fanOut', () => {
  const event = (orgId: string, type = 't', payload: unknown = { event: type, n: randomUUID() }): DomainEvent => ({
    id: randomUUID(),
    type: type as DomainEvent['type'],
    orgId,
    source: 'wallet',
    occurredAt: new Date().toISOString(),
    payload,
  });

  it('records one delivery per active subscribed registration of the organization, in one statement for many events', async () => {
    const hooks = await addRegistration({ org: 'org_a' });
    const gvault = await addRegistration({ org: 'org_a', family: 'gvault' });
    await addRegistration({ org: 'org_a', events: ['other'] });
    await addRegistration({ org: 'org_a', deleted: true });
    const foreign = await addRegistration({ org: 'org_b' });
    const mine = event('org_a', 't', { event: 't', quote: 'a "quoted" \\ value', unicode: 'é✓' });
    const shared = event(ALL_ORGANIZATIONS);
    const ignored = event('org_a', 'nobody');

    const registrations = await fanOut(db, 'webhook-deliveries', [mine, shared, ignored]);
    expect(registrations.sort()).toEqual([hooks, gvault, hooks, gvault, foreign].sort());

    const { rows } = await admin.query<{
      id: string;
      registration_id: string;
      source_event_id: string;
      org_id: string;
      body: string;
      status: string;
    }>(
      'SELECT id::text AS id, registration_id::text AS registration_id, source_event_id::text AS source_event_id, org_id, body, status FROM deliveries',
    );
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const source = row.source_event_id === mine.id ? mine : shared;
      expect(row.status).toBe('pending');
      if (row.registration_id === gvault) {
        expect(row.body).toBe(deliveryBody('gvault', source, row.id));
        expect(JSON.parse(row.body)).toMatchObject({ id: row.id, type: source.type, data: source.payload });
      } else {
        expect(row.body).toBe(JSON.stringify(source.payload));
      }
      expect(row.org_id).toBe(row.registration_id === foreign ? 'org_b' : 'org_a');
    }
    // Claimable right away, with the body exactly as recorded.
    const claimed = await claimDue(db, 64, CAPS, LEASE_MS);
    expect(claimed.deliveries).toHaveLength(5);
  });

  it('adds nothing for an event already processed, also when it comes twice in one batch', async () => {
    const hooks = await addRegistration();
    const once = event('org_a');
    expect(await fanOut(db, 'webhook-deliveries', [once, once])).toEqual([hooks]);
    expect(await fanOut(db, 'webhook-deliveries', [once, event('org_b')])).toEqual([]);
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM deliveries');
    expect(rows[0].n).toBe(1);
    // org_b has no registration: its event leaves no row behind.
    const processed = await admin.query('SELECT event_id::text AS id FROM processed_events');
    expect(processed.rows).toEqual([{ id: once.id }]);
  });

  it('records nothing for an event nobody subscribes to, so a registration made before it comes again gets it once', async () => {
    await addRegistration({ org: 'org_a' });
    const unheard = event('org_b');
    expect(await fanOut(db, 'webhook-deliveries', [unheard])).toEqual([]);
    expect((await admin.query('SELECT count(*)::int AS n FROM processed_events')).rows[0].n).toBe(0);
    const late = await addRegistration({ org: 'org_b' });
    expect(await fanOut(db, 'webhook-deliveries', [unheard])).toEqual([late]);
    expect(await fanOut(db, 'webhook-deliveries', [unheard])).toEqual([]);
    expect((await admin.query('SELECT count(*)::int AS n FROM deliveries WHERE registration_id = $1', [late])).rows[0].n).toBe(1);
  });

  it('remembers whose events nobody wants and records them without building their bodies', async () => {
    await addRegistration({ org: 'org_a' });
    let built = 0;
    const counted = (orgId: string, type = 't'): DomainEvent =>
      event(orgId, type, { event: type, toJSON: () => (built++, { event: type }) });
    const unsubscribed = new UnsubscribedPairs();

    // The first look builds every body and learns which pairs nobody subscribes to.
    expect(
      await fanOut(db, 'webhook-deliveries', [counted('org_b'), counted('org_a', 'nobody'), counted('org_a')], undefined, unsubscribed),
    ).toHaveLength(1);
    expect(built).toBe(6);
    expect([unsubscribed.has('org_b', 't'), unsubscribed.has('org_a', 'nobody'), unsubscribed.has('org_a', 't')]).toEqual([
      true,
      true,
      false,
    ]);

    // Later events of those pairs: no body built, nothing recorded; the subscribed one as before.
    built = 0;
    expect(
      await fanOut(db, 'webhook-deliveries', [counted('org_b'), counted('org_a', 'nobody'), counted('org_a')], undefined, unsubscribed),
    ).toHaveLength(1);
    expect(built).toBe(2);
    expect((await admin.query('SELECT count(*)::int AS n FROM deliveries')).rows[0].n).toBe(2);
    expect((await admin.query('SELECT count(*)::int AS n FROM processed_events')).rows[0].n).toBe(2);
  });

  it('sends an event again with its bodies when a registration wants it after all, and forgets the pair', async () => {
    const unsubscribed = new UnsubscribedPairs();
    unsubscribed.add('org_b', 't');
    const hooks = await addRegistration({ org: 'org_b' });
    const gvault = await addRegistration({ org: 'org_b', family: 'gvault' });
    const wanted = event('org_b', 't', { event: 't', note: 'made after the pair was remembered' });
    const ignored = event('org_b', 'nobody');

    expect((await fanOut(db, 'webhook-deliveries', [wanted, ignored], undefined, unsubscribed)).sort()).toEqual([hooks, gvault].sort());
    expect(unsubscribed.has('org_b', 't')).toBe(false);
    expect(unsubscribed.has('org_b', 'nobody')).toBe(true);
    const { rows } = await admin.query<{ id: string; registration_id: string; body: string }>(
      'SELECT id::text AS id, registration_id::text AS registration_id, body FROM deliveries ORDER BY registration_id',
    );
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row.body).toBe(row.registration_id === gvault ? deliveryBody('gvault', wanted, row.id) : JSON.stringify(wanted.payload));
    // Recorded once: the same event again adds nothing.
    expect(await fanOut(db, 'webhook-deliveries', [wanted], undefined, unsubscribed)).toEqual([]);
  });
});

describe('DeliveryDispatcher', () => {
  /** A dispatcher on the test database with the real sender, which may reach receivers on loopback. */
  function loopbackDispatcher(config: Partial<WebhookConfig>, box: SecretBox) {
    const full = { WEBHOOK_POLL_INTERVAL_MS: 50, WEBHOOK_RETRY_SCHEDULE_SCALE: 1, ...config } as WebhookConfig;
    const sender = new WebhookSender({ httpsOnly: false, privateHosts: new Set(['127.0.0.1']) }, full.WEBHOOK_DELIVERY_TIMEOUT_MS);
    return { sender, dispatcher: new DeliveryDispatcher(db, full, pino({ level: 'silent' }), box, sender) };
  }

  it('fails a delivery whose registration was deleted after it was recorded, without sending it', async () => {
    // A real receiver on loopback and the real sender: only the live registration's delivery may arrive.
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.url ?? '');
      request.resume().on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const box = new SecretBox(randomBytes(32));
    const live = await addRegistration();
    const gone = await addRegistration();
    // Each row its own sealed secret: a sealed value opens only in the row it is bound to.
    for (const id of [live, gone]) {
      await admin.query('UPDATE registrations SET secret_enc = $1, url = $2 WHERE id = $3', [
        box.seal(newSigningSecret(), { registrationId: id, orgId: 'org_a' }),
        `${base}/${id}`,
        id,
      ]);
    }
    const [liveDelivery] = await addDue(live, 1);
    const [goneDelivery] = await addDue(gone, 1);
    // The race the flag closes: the consumer recorded the delivery, then the registration went.
    await admin.query('UPDATE registrations SET deleted_at = now() WHERE id = $1', [gone]);

    const { sender, dispatcher } = loopbackDispatcher(
      {
        WEBHOOK_DELIVERY_TIMEOUT_MS: 2_000,
        WEBHOOK_CONCURRENCY: 8,
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: 4,
        WEBHOOK_CONCURRENCY_PER_ORGANIZATION: 8,
      },
      box,
    );
    dispatcher.onApplicationBootstrap();
    try {
      for (let waited = 0; waited < 10_000; waited += 50) {
        const [a, b] = [await delivery(liveDelivery as string), await delivery(goneDelivery as string)];
        if (a.status !== 'pending' && b.status !== 'pending') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await dispatcher.beforeApplicationShutdown();
      sender.close();
      await new Promise((resolve) => receiver.close(resolve));
    }

    expect(received).toEqual([`/${live}`]);
    expect(await delivery(liveDelivery as string)).toMatchObject({ status: 'completed', attempt_count: 1 });
    expect(await delivery(goneDelivery as string)).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null });
    expect(await emissionsOf(goneDelivery as string)).toEqual([
      expect.objectContaining({
        attempt_number: 1,
        response_status: null,
        error_message: 'The registration was deleted; nothing was sent.',
      }),
    ]);
  });

  it('gives a receiver whose attempt timed out the shorter timeout until it answers in time again', async () => {
    // A receiver on loopback that holds the connection without answering, then answers, as scripted.
    const script: ('hang' | 200)[] = ['hang', 'hang', 200, 'hang', 200];
    const held: ServerResponse[] = [];
    const receiver = createServer((request, response) => {
      request.resume().on('end', () => ((script.shift() ?? 200) === 'hang' ? held.push(response) : response.writeHead(200).end()));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const box = new SecretBox(randomBytes(32));
    const registration = await addRegistration();
    await admin.query('UPDATE registrations SET secret_enc = $1, url = $2', [
      box.seal(newSigningSecret(), { registrationId: registration, orgId: 'org_a' }),
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    ]);
    // One attempt at a time, retried at once: each attempt's timeout is the one its predecessor left.
    const { sender, dispatcher } = loopbackDispatcher(
      {
        WEBHOOK_DELIVERY_TIMEOUT_MS: 1_000,
        WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS: 100,
        WEBHOOK_POLL_INTERVAL_MS: 20,
        WEBHOOK_CONCURRENCY: 1,
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: 1,
        WEBHOOK_CONCURRENCY_PER_ORGANIZATION: 1,
        WEBHOOK_RETRY_SCHEDULE_SCALE: 0.001,
      },
      box,
    );
    const completed = async (id: string) => {
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 20))) {
        if ((await delivery(id)).status === 'completed') return;
      }
    };
    const errors = async (id: string) => (await emissionsOf(id)).map((emission) => emission.error_message ?? emission.response_status);
    dispatcher.onApplicationBootstrap();
    try {
      const [first] = await addDue(registration, 1);
      await completed(first as string);
      // Answered in time: the next delivery gets the full timeout again.
      const [second] = await addDue(registration, 1, 10);
      await completed(second as string);
      expect(await errors(first as string)).toEqual(['timed out after 1000 ms', 'timed out after 100 ms', 200]);
      expect(await errors(second as string)).toEqual(['timed out after 1000 ms', 200]);
    } finally {
      await dispatcher.beforeApplicationShutdown();
      sender.close();
      for (const response of held) response.destroy();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

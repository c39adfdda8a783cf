import type { PgPoolSql, PgSqlExecutor } from '@service/sql';

export interface ClaimedDelivery {
  id: string;
  registration_id: string;
  attempt_count: number;
  event_type: string;
  body: string;
  emission_id: string;
  url: string;
  /** The registration's organization: with `registration_id`, what its sealed secrets are bound to. */
  org_id: string;
  secret_enc: string;
  /** The secret a rotation replaced, while its overlap lasts (null otherwise): deliveries are signed with both. */
  previous_secret_enc: string | null;
  /**
   * The registration was deleted after this delivery was recorded: a fan-out that read the
   * registration just before a delete committed can insert a delivery after the delete cancelled
   * the others. It is failed without being sent.
   */
  registration_deleted: boolean;
  /** W3C traceparent of the span that recorded the delivery (the event's consumer span), if traced. */
  trace_context: string | null;
}

/**
 * Claims due deliveries for one replica: each gets a lease (a crashed replica's lease expires and
 * the delivery is due again), its attempt counted and an emission opened, in one statement.
 * Rows are locked with SKIP LOCKED so replicas never claim the same one.
 *
 * Per-endpoint cap: the requests in flight per registration, from every replica, are counted from
 * the live leases (a small partial index) less the claiming replica's attempts whose receiver has
 * answered but which are not written yet ($5), and a registration gets at most `perEndpoint` minus
 * that many more, so a slow receiver cannot take every slot and a receiver's concurrency is what
 * the cap bounds, not the time its answers take to be written. Replicas claiming at the same
 * moment pick the same rows of a registration, so SKIP LOCKED leaves the later one nothing beyond
 * the cap.
 *
 * Per-organization cap and fair turns: the requests in flight per organization are the sum of its
 * registrations' (same count), and an organization gets at most `perOrganization` ($6) minus that
 * many more, however many registrations it has. The rows each registration offers are numbered
 * per organization, oldest first (its turn), and the claim takes every organization's first turn,
 * then every second turn, and so on (oldest first within a turn): organizations with due rows
 * share a claim round-robin, so one with a large backlog to slow receivers takes at most its
 * share of the free slots and at most its cap in all, and another's single due delivery is
 * claimed in the same round. Replicas claiming at the same moment number the same rows the same
 * way, so SKIP LOCKED leaves the later one nothing beyond the organization's cap either.
 *
 * Which rows: the registrations with due rows are found by a walk over the index on
 * (registration_id, next_attempt_at), one probe per registration with rows to send now or later
 * (its earliest row says whether it has any due; a registration with only future retries costs a
 * probe, not a read of them), at most $4 registrations; each registration with
 * room gives its oldest due rows not in flight, as many as it has room for; of those the oldest $1
 * are claimed. A registration at its cap costs a probe, not a scan of its backlog: the claim looked
 * at up to 10,000 due rows in next_attempt_at order and passed over those of saturated
 * registrations, so one endpoint's backlog of 20,000 deliveries made every claim read 10,000
 * rows (90 ms), and that endpoint got about 30 deliveries a second, one claim per freed slot.
 *
 * One more row, with a null id, says that due rows may be waiting that this claim did not take
 * (rows left over, a registration at its cap or filled up by this claim, registrations beyond
 * $4), so the caller claims again as soon as one of its attempts ends, even when it got nothing now.
 */
const CLAIM_SQL = `
WITH RECURSIVE busy AS (
  SELECT registration_id, count(*) AS n FROM deliveries
   WHERE lease_until >= now() AND id <> ALL ($5::uuid[]) GROUP BY registration_id
), busy_org AS (
  SELECT r.org_id, sum(busy.n)::bigint AS n FROM busy JOIN registrations r ON r.id = busy.registration_id GROUP BY r.org_id
), walk AS (
  (SELECT registration_id, next_attempt_at, 1 AS depth FROM deliveries
    WHERE next_attempt_at IS NOT NULL ORDER BY registration_id, next_attempt_at LIMIT 1)
  UNION ALL
  SELECT n.registration_id, n.next_attempt_at, walk.depth + 1 FROM walk
   CROSS JOIN LATERAL (
     SELECT d.registration_id, d.next_attempt_at FROM deliveries d
      WHERE d.next_attempt_at IS NOT NULL AND d.registration_id > walk.registration_id
      ORDER BY d.registration_id, d.next_attempt_at LIMIT 1) AS n
   WHERE walk.depth < $4::int
), due AS (
  SELECT walk.registration_id, r.org_id FROM walk JOIN registrations r ON r.id = walk.registration_id
   WHERE walk.next_attempt_at <= now()
), room AS (
  SELECT due.registration_id, due.org_id,
         greatest(least($6::int - coalesce(o.n, 0), $1::int), 0) AS org_take,
         greatest(least($2::int - coalesce(b.n, 0), $6::int - coalesce(o.n, 0), $1::int), 0) AS take
    FROM due LEFT JOIN busy b ON b.registration_id = due.registration_id
    LEFT JOIN busy_org o ON o.org_id = due.org_id
), window_rows AS (
  SELECT w.id, w.registration_id, room.org_id, room.org_take, w.next_attempt_at FROM room
   CROSS JOIN LATERAL (
     SELECT d.id, d.registration_id, d.next_attempt_at FROM deliveries d
      WHERE d.registration_id = room.registration_id AND d.next_attempt_at <= now()
        AND (d.lease_until IS NULL OR d.lease_until < now())
      ORDER BY d.next_attempt_at LIMIT room.take) AS w
   WHERE room.take > 0
), turns AS (
  SELECT id, next_attempt_at, org_take, row_number() OVER (PARTITION BY org_id ORDER BY next_attempt_at, id) AS turn FROM window_rows
), candidates AS (
  SELECT id FROM turns WHERE turn <= org_take ORDER BY turn, next_attempt_at, id LIMIT $1::int
), locked AS (
  SELECT d.id FROM deliveries d
   WHERE d.id = ANY (ARRAY(SELECT id FROM candidates))
     AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())
     FOR UPDATE OF d SKIP LOCKED
), claimed AS (
  UPDATE deliveries d
     SET lease_until = now() + make_interval(secs => $3::double precision / 1000),
         attempt_count = d.attempt_count + 1, updated_at = now()
    FROM locked WHERE d.id = locked.id
  RETURNING d.id, d.registration_id, d.attempt_count, d.event_type, d.body, d.trace_context
), emitted AS (
  INSERT INTO emissions (id, delivery_id, attempt_number, requested_at)
  SELECT gen_random_uuid(), id, attempt_count, now() FROM claimed
  RETURNING id, delivery_id
)
SELECT c.id::text AS id, c.registration_id::text AS registration_id, c.attempt_count, c.event_type, c.body,
       e.id::text AS emission_id, r.url, r.org_id, r.secret_enc,
       CASE WHEN r.previous_secret_expires_at > now() THEN r.previous_secret_enc END AS previous_secret_enc,
       r.deleted_at IS NOT NULL AS registration_deleted, c.trace_context
  FROM claimed c
  JOIN emitted e ON e.delivery_id = c.id
  JOIN registrations r ON r.id = c.registration_id
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
 WHERE (SELECT count(*) FROM window_rows) > (SELECT count(*) FROM claimed)
    OR EXISTS (SELECT 1 FROM room WHERE room.take <= (SELECT count(*) FROM window_rows w WHERE w.registration_id = room.registration_id))
    OR (SELECT count(*) FROM walk) >= $4::int`;

/** Registrations with due rows one claim looks at, at most. */
const CLAIM_REGISTRATIONS = 1_000;

export interface Claim {
  readonly deliveries: ClaimedDelivery[];
  /** Due rows may be waiting that this claim did not take: claim again when a slot frees up rather than at the next poll. */
  readonly more: boolean;
}

/** Requests in flight across replicas that a claim keeps to (`WEBHOOK_CONCURRENCY_PER_*`). */
export interface ClaimCaps {
  /** Per registration (its receiver). */
  readonly perEndpoint: number;
  /** Per organization, all its registrations together. */
  readonly perOrganization: number;
}

/**
 * Claims up to `limit` due deliveries (see {@link CLAIM_SQL}). `answered`: this replica's attempts
 * whose receiver has answered and which are not written yet; they no longer count against their
 * registration's and organization's caps (their leases still keep them from being claimed again).
 */
export async function claimDue(
  db: PgSqlExecutor,
  limit: number,
  caps: ClaimCaps,
  leaseMs: number,
  answered: readonly string[] = [],
): Promise<Claim> {
  const rows = await db.$queryRawUnsafe<(ClaimedDelivery | { id: null })[]>(
    CLAIM_SQL,
    limit,
    caps.perEndpoint,
    leaseMs,
    CLAIM_REGISTRATIONS,
    answered,
    caps.perOrganization,
  );
  const deliveries = rows.filter((row): row is ClaimedDelivery => row.id !== null);
  return { deliveries, more: deliveries.length < rows.length };
}

export interface AttemptRecord {
  readonly delivery: ClaimedDelivery;
  readonly responseStatus: number | null;
  readonly responseMs: number;
  readonly error: string | null;
}

export type Completion = { kind: 'completed' } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; disableRegistration: boolean };

export interface FinishedAttempt {
  readonly attempt: AttemptRecord;
  readonly completion: Completion;
}

/**
 * Closes the emissions of finished attempts and moves their deliveries on, in one statement for
 * the whole batch (one round trip and one commit instead of one each).
 *
 * - The attempt number guards against a replica whose lease expired writing over a newer attempt.
 * - A delivery cancelled meanwhile (registration deleted) is already failed and stays so, unless
 *   this attempt was answered 2xx: it did reach the receiver.
 * - Rows are locked with SKIP LOCKED, so recording never waits on a row lock and cannot deadlock
 *   with a cancellation locking the same registration's rows in another order. What was skipped
 *   is returned and must be recorded again (the lock holder commits within milliseconds).
 */
const RECORD_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::text[], $5::int[], $6::int[], $7::text[], $8::double precision[])
    AS t(delivery_id, attempt_number, emission_id, kind, response_status, response_ms, error, delay_ms)
), locked AS (
  SELECT d.id FROM deliveries d WHERE d.id = ANY ($1::uuid[]) FOR UPDATE OF d SKIP LOCKED
), emission AS (
  UPDATE emissions e
     SET completed_at = now(), response_status = i.response_status, response_ms = i.response_ms, error_message = i.error
    FROM input i JOIN locked l ON l.id = i.delivery_id
   WHERE e.id = i.emission_id
), delivery AS (
  UPDATE deliveries d
     SET status = CASE i.kind WHEN 'completed' THEN 'completed' WHEN 'retry' THEN 'retry_scheduled' ELSE 'failed' END,
         delivered_at = CASE WHEN i.kind = 'completed' THEN now() ELSE d.delivered_at END,
         last_error = CASE WHEN i.kind = 'completed' THEN NULL ELSE i.error END,
         next_attempt_at = CASE WHEN i.kind = 'retry' THEN now() + make_interval(secs => i.delay_ms / 1000) END,
         lease_until = NULL, updated_at = now()
    FROM input i JOIN locked l ON l.id = i.delivery_id
   WHERE d.id = i.delivery_id AND d.attempt_count = i.attempt_number
     AND (i.kind = 'completed' OR d.status IN ('pending', 'retry_scheduled'))
)
SELECT i.delivery_id::text AS id FROM input i WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.id = i.delivery_id)`;

/** Records finished attempts; returns those whose row was locked by someone else, to record again. */
export async function recordAttempts(db: PgSqlExecutor, finished: readonly FinishedAttempt[]): Promise<FinishedAttempt[]> {
  if (finished.length === 0) return [];
  const column = <T>(pick: (entry: FinishedAttempt) => T) => finished.map(pick);
  const skipped = await db.$queryRawUnsafe<{ id: string }[]>(
    RECORD_SQL,
    column(({ attempt }) => attempt.delivery.id),
    column(({ attempt }) => attempt.delivery.attempt_count),
    column(({ attempt }) => attempt.delivery.emission_id),
    column(({ completion }) => completion.kind),
    column(({ attempt }) => attempt.responseStatus),
    column(({ attempt }) => attempt.responseMs),
    column(({ attempt }) => attempt.error),
    column(({ completion }) => (completion.kind === 'retry' ? completion.delayMs : null)),
  );
  if (skipped.length === 0) return [];
  const ids = new Set(skipped.map((row) => row.id));
  return finished.filter(({ attempt }) => ids.has(attempt.delivery.id));
}

// 410 Gone: the registration is deleted and every delivery it still had pending is cancelled.
// The registration row is locked first, in the same order as a deletion through the API.
const DISABLE_REGISTRATION = 'UPDATE registrations SET deleted_at = now(), updated_at = now() WHERE id = $1::uuid AND deleted_at IS NULL';
const CANCEL_PENDING = `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = now()
  WHERE registration_id = $1::uuid AND status IN ('pending', 'retry_scheduled')`;

/** Records attempts, again after a pause for rows another transaction had locked. */
async function recordAll(db: PgSqlExecutor, finished: FinishedAttempt[]): Promise<void> {
  for (let pending = finished; pending.length > 0;) {
    pending = await recordAttempts(db, pending);
    // Rows of a delivery in flight are locked only by recording or cancelling, both brief.
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Records one attempt at once. A 410 also deletes the registration and cancels what it still had
 * pending, in one transaction with the attempt's own record.
 */
export async function recordAttempt(db: PgPoolSql, attempt: AttemptRecord, completion: Completion): Promise<void> {
  if (completion.kind !== 'failed' || !completion.disableRegistration) return recordAll(db, [{ attempt, completion }]);
  await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(DISABLE_REGISTRATION, attempt.delivery.registration_id);
    await recordAll(tx, [{ attempt, completion }]);
    await tx.$executeRawUnsafe(
      CANCEL_PENDING,
      attempt.delivery.registration_id,
      'The receiver answered 410 Gone; the registration was disabled.',
    );
  });
}

import type { SqlExecutor, TransactionalSql } from '@service/events';

export interface ClaimedDelivery {
  id: string;
  registration_id: string;
  attempt_count: number;
  event_type: string;
  body: string;
  emission_id: string;
  url: string;
  secret_enc: string;
}

/**
 * Claims due deliveries for one replica: each gets a lease (a crashed replica's lease expires and
 * the delivery is due again), its attempt counted and an emission opened, in one statement.
 * Rows are locked with SKIP LOCKED so replicas never claim the same one. Per registration, rows
 * already in flight rank first, so at most `perEndpoint` attempts to one receiver run at a time
 * and a slow receiver cannot take every slot. Only the oldest due rows are ranked, so a backlog
 * does not make every claim scan it whole.
 */
const CLAIM_SQL = `
WITH window_rows AS (
  SELECT id, registration_id, next_attempt_at, lease_until FROM deliveries
   WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $4
), ranked AS (
  SELECT id, next_attempt_at, lease_until,
         row_number() OVER (PARTITION BY registration_id
                            ORDER BY (lease_until IS NOT NULL AND lease_until >= now()) DESC, next_attempt_at, id) AS rank
    FROM window_rows
), candidates AS (
  SELECT id FROM ranked
   WHERE rank <= $2 AND (lease_until IS NULL OR lease_until < now())
   ORDER BY next_attempt_at LIMIT $1
), locked AS (
  SELECT d.id FROM deliveries d JOIN candidates c ON c.id = d.id
   WHERE d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())
     FOR UPDATE OF d SKIP LOCKED
), claimed AS (
  UPDATE deliveries d
     SET lease_until = now() + make_interval(secs => $3::double precision / 1000),
         attempt_count = d.attempt_count + 1, updated_at = now()
    FROM locked WHERE d.id = locked.id
  RETURNING d.id, d.registration_id, d.attempt_count, d.event_type, d.body
), emitted AS (
  INSERT INTO emissions (id, delivery_id, attempt_number, requested_at)
  SELECT gen_random_uuid(), id, attempt_count, now() FROM claimed
  RETURNING id, delivery_id
)
SELECT c.id::text AS id, c.registration_id::text AS registration_id, c.attempt_count, c.event_type, c.body,
       e.id::text AS emission_id, r.url, r.secret_enc
  FROM claimed c
  JOIN emitted e ON e.delivery_id = c.id
  JOIN registrations r ON r.id = c.registration_id`;

const CLAIM_WINDOW_ROWS = 2_000;

export function claimDue(db: SqlExecutor, limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return db.$queryRawUnsafe<ClaimedDelivery[]>(CLAIM_SQL, limit, perEndpoint, leaseMs, CLAIM_WINDOW_ROWS);
}

export interface AttemptRecord {
  readonly delivery: ClaimedDelivery;
  readonly responseStatus: number | null;
  readonly responseMs: number;
  readonly error: string | null;
}

export type Completion =
  | { kind: 'completed' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed'; disableRegistration: boolean };

/** Closes the attempt's emission in the same statement as the delivery update (atomic, one round trip). */
function withEmission(update: string): string {
  return `WITH emission AS (
    UPDATE emissions SET completed_at = now(), response_status = $5, response_ms = $6, error_message = $3 WHERE id = $4::uuid
  ) ${update}`;
}

// The attempt number guards against a replica whose lease expired writing over a newer attempt.
const MARK_COMPLETED = withEmission(`UPDATE deliveries SET status = 'completed', delivered_at = now(), last_error = NULL,
  next_attempt_at = NULL, lease_until = NULL, updated_at = now() WHERE id = $1::uuid AND attempt_count = $2`);
// A delivery cancelled meanwhile (registration deleted) is already failed and stays so.
const MARK_RETRY = withEmission(`UPDATE deliveries SET status = 'retry_scheduled', last_error = $3,
  next_attempt_at = now() + make_interval(secs => $7::double precision / 1000), lease_until = NULL, updated_at = now()
  WHERE id = $1::uuid AND attempt_count = $2 AND status IN ('pending', 'retry_scheduled')`);
const MARK_FAILED = withEmission(`UPDATE deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL, lease_until = NULL,
  updated_at = now() WHERE id = $1::uuid AND attempt_count = $2 AND status IN ('pending', 'retry_scheduled')`);
// 410 Gone: the registration is deleted and every delivery it still had pending is cancelled.
const DISABLE_REGISTRATION = [
  'UPDATE registrations SET deleted_at = now(), updated_at = now() WHERE id = $1::uuid AND deleted_at IS NULL',
  `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = now()
    WHERE registration_id = $1::uuid AND status IN ('pending', 'retry_scheduled')`,
];

/** Closes the emission and moves the delivery on. */
export async function recordAttempt(db: TransactionalSql, attempt: AttemptRecord, completion: Completion): Promise<void> {
  const { delivery } = attempt;
  const values = [delivery.id, delivery.attempt_count, attempt.error, delivery.emission_id, attempt.responseStatus, attempt.responseMs];
  if (completion.kind === 'completed') {
    await db.$executeRawUnsafe(MARK_COMPLETED, ...values);
  } else if (completion.kind === 'retry') {
    await db.$executeRawUnsafe(MARK_RETRY, ...values, completion.delayMs);
  } else if (!completion.disableRegistration) {
    await db.$executeRawUnsafe(MARK_FAILED, ...values);
  } else {
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(MARK_FAILED, ...values);
      const [disable, cancel] = DISABLE_REGISTRATION as [string, string];
      await tx.$executeRawUnsafe(disable, delivery.registration_id);
      await tx.$executeRawUnsafe(cancel, delivery.registration_id, 'The receiver answered 410 Gone; the registration was disabled.');
    });
  }
}

-- The statements delivery-store.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- claimDue(db, limit 64, caps {perEndpoint 8, perOrganization 32}, leaseMs 30000, answered [one delivery])
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
    OR (SELECT count(*) FROM walk) >= $4::int;

-- recordAttempts(db, [an attempt answered 200: completed, one answered 503: retry in 5 s])
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
SELECT i.delivery_id::text AS id FROM input i WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.id = i.delivery_id);

-- recordAttempt(db, an attempt answered 410, failed and disabling the registration)
BEGIN;
UPDATE registrations SET deleted_at = now(), updated_at = now() WHERE id = $1::uuid AND deleted_at IS NULL;
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
SELECT i.delivery_id::text AS id FROM input i WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.id = i.delivery_id);
UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = now()
WHERE registration_id = $1::uuid AND status IN ('pending', 'retry_scheduled');
COMMIT;

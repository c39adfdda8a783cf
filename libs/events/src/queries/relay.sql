-- The statements relay.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- OutboxRelay.start(): the relay row, should the migration have left none (then polling starts; stopped at once here)
INSERT INTO outbox_relay (name) VALUES ('relay') ON CONFLICT DO NOTHING;

-- OutboxRelay.drain(): a batch of one row, published; then the next batch, recording where that one ended, finds none
WITH cursor AS (
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
  FROM next WHERE EXISTS (SELECT FROM held) ORDER BY next.txid, next.seq;
WITH cursor AS (
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
  FROM next WHERE EXISTS (SELECT FROM held) ORDER BY next.txid, next.seq;

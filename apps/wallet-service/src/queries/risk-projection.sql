-- The statements risk-projection.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- applyRiskEvent(tx, prevent_additional_allocation executed): the block recorded
BEGIN;
SELECT pg_advisory_xact_lock(hashtextextended('risk-alert:' || $1::text, 0)) IS NULL AS "locked";
WITH w0 AS (INSERT INTO risk_allocation_blocks (action_id, org_id, wallet_id, yield_source_id, risk_alert_id, executed_at, lifted_at, lifted_by, updated_at)
SELECT $2::uuid, $3::text, $4::uuid, $5::text,
       alert.id, $1::timestamptz, resolved.resolved_at, CASE WHEN resolved.alert_id IS NULL THEN NULL ELSE 'alert_resolved' END, $1::timestamptz
  FROM (SELECT $6::uuid AS id) alert LEFT JOIN risk_resolved_alerts resolved ON resolved.alert_id = alert.id
ON CONFLICT (action_id) DO UPDATE SET executed_at = COALESCE(risk_allocation_blocks.executed_at, EXCLUDED.executed_at),
       lifted_at = COALESCE(risk_allocation_blocks.lifted_at, EXCLUDED.lifted_at),
       lifted_by = COALESCE(risk_allocation_blocks.lifted_by, EXCLUDED.lifted_by), updated_at = EXCLUDED.updated_at) SELECT 1;
COMMIT;

-- applyRiskEvent(tx, exit_position executing): the exit rebalance (the whole position in JAAA to cash)
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at, exit_source)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz,
        $10::text)), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($11::uuid, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::timestamptz, $18::jsonb, $19::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($20::uuid, $21, $22, $23::jsonb, $24::text, clock_timestamp())), w3 AS (UPDATE idempotency_keys SET response = $25::jsonb
 WHERE org_id = $26::text AND operation = $27::text AND request_id = $28::uuid) SELECT 1;
COMMIT;

-- applyRiskEvent(tx, exit_position executing): the action exited already, nothing to do
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;
COMMIT;

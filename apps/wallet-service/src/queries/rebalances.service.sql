-- The statements rebalances.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- allocate(ctx, {walletId, requestId, [10 USD from cash to JAAA]})
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz)), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($10::uuid, $11::text, $12::text, $13::bigint, $14::bigint, $15::bigint, $16::timestamptz), ($17::uuid, $18::text, $19::text, $20::bigint, $21::bigint, $22::bigint, $23::timestamptz)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($24::uuid, $25, $26, $27::jsonb, $28::text, clock_timestamp())), w3 AS (UPDATE idempotency_keys SET response = $29::jsonb
 WHERE org_id = $30::text AND operation = $31::text AND request_id = $32::uuid) SELECT 1;
COMMIT;

-- allocate(ctx, ...): a replay, answered as first
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;
COMMIT;

-- preview(ctx, {walletId, allocations})
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2;

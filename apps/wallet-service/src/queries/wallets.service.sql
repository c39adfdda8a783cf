-- The statements wallets.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- create(ctx, {requestId, label, autoRebalance, strategy})
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;
SELECT count(*)::int AS count FROM wallets WHERE org_id = $1;
WITH w AS (
     INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses)
     VALUES ($1::uuid, $2, $3, 'creating', $4, $5::jsonb, '{}'::jsonb) RETURNING *),
   p AS (INSERT INTO wallet_provisions (wallet_id, org_id) VALUES ($1::uuid, $2))
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM w;
WITH w0 AS (UPDATE idempotency_keys SET response = $1::jsonb
WHERE org_id = $2::text AND operation = $3::text AND request_id = $4::uuid) SELECT 1;
COMMIT;

-- create(ctx, ...): a replay, answered as first
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;
COMMIT;

-- get(ctx, walletId)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = ANY($1::uuid[]);

-- list(ctx, {limit 20})
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w
    WHERE org_id = $1::text ORDER BY w.created_at DESC, w.id DESC LIMIT $2::int;

-- updateStrategy(ctx, {walletId, requestId, allocations}): on an autoRebalance wallet, with the rebalance that reaches it
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;
WITH w0 AS (UPDATE wallets SET strategy = $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at, exit_source)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz,
        $10::text)), w1 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $11::text, $12::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($13::uuid[], $14::text[],
              $15::text[], $16::text[],
              $17::bigint[], $18::bigint[],
              $19::bigint[], $20::int[],
              $21::timestamptz[],
              $22::bigint[],
              $23::timestamptz[],
              $24::bigint[], $25::text[],
              $26::text[], $27::text[],
              $28::text[],
              $29::text[],
              $30::timestamptz[],
              $31::bigint[], $32::bigint[],
              $33::bigint[], $34::bigint[],
              $35::bigint[], $36::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w2 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($37::uuid, $38::text, $39::text, $40::bigint, $41::bigint, $42::bigint, $43::timestamptz, $44::jsonb, $45::jsonb), ($46::uuid, $47::text, $48::text, $49::bigint, $50::bigint, $51::bigint, $52::timestamptz, $53::jsonb, $54::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($55::uuid, $56, $57, $58::jsonb, $59::text, clock_timestamp())) SELECT 1;
COMMIT;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = ANY($1::uuid[]);

-- updateStrategy(ctx, ...): a wallet without autoRebalance
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;
WITH w0 AS (UPDATE wallets SET strategy = $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
COMMIT;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = ANY($1::uuid[]);

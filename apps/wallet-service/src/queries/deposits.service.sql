-- The statements deposits.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- simulate(ctx, {walletId, amountUsd '25', chain 'ethereum_sepolia'})
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
WITH w0 AS (INSERT INTO deposits (id, wallet_id, org_id, amount, token, chain, from_address, tx_hash, status, settle_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::bigint, $5::text,
        $6::text, $7::text, $8::text, $9::text, $10::timestamptz,
        $11::timestamptz)), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($12::uuid, $13, $14, $15::jsonb, $16::text, clock_timestamp())) SELECT 1;
COMMIT;

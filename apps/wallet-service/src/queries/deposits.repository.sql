-- The statements deposits.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- createDeposit(tx, deposit, [one event])
WITH w0 AS (INSERT INTO deposits (id, wallet_id, org_id, amount, token, chain, from_address, tx_hash, status, settle_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::bigint, $5::text,
        $6::text, $7::text, $8::text, $9::text, $10::timestamptz,
        $11::timestamptz)), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($12::uuid, $13, $14, $15::jsonb, $16::text, clock_timestamp())) SELECT 1;

-- addCompleteDeposit(writes, deposit, now), alone
WITH w0 AS (UPDATE deposits SET status = 'completed', completed_at = $1::timestamptz WHERE id = $2::uuid) SELECT 1;

-- getDeposit(tx, depositId)
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
     tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
FROM deposits WHERE id = $1::uuid;

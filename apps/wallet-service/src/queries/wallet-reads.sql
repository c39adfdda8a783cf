-- The statements wallet-reads.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- WalletReads.find(orgId, walletId), twice in one turn: one statement
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = ANY($1::uuid[]);

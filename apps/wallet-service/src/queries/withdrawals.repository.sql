-- The statements withdrawals.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- addWithdrawal(writes, withdrawal, [one leg]), alone
WITH w0 AS (INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token,
                         payout_legs, next_run_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::bigint, $7::bigint, $8::text,
        $9::text, $10::text, $11::jsonb,
        $12::timestamptz, $13::timestamptz)) SELECT 1;

-- getWithdrawal(tx, withdrawalId)
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid;

-- findWithdrawal(db, walletId, withdrawalId)
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;

-- payoutStepQuery(withdrawalId)
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt",
          p.withdrawals AS "policyWithdrawals", p.threshold::text AS "policyThreshold", p.quorum AS "policyQuorum", p.updated_at AS "policyUpdatedAt",
          EXISTS (SELECT 1 FROM withdrawals o
                   WHERE o.wallet_id = w.wallet_id AND o.destination_chain = w.destination_chain AND o.status = 'processing' AND o.id <> w.id
                     AND o.payout_legs @> '[{"status": "pending_customer_approval"}]'::jsonb) AS "approvalElsewhere",
          EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = w.wallet_id AND o.status = 'processing' AND o.id <> w.id) AS withdrawals,
          EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = w.wallet_id AND r.status = 'processing') AS rebalances,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;

-- addLegChanges(writes, {legs, nextRunAt, settled: null}), alone
WITH w0 AS (UPDATE withdrawals SET payout_legs = $1::jsonb, next_run_at = $2::timestamptz
WHERE id = $3::uuid) SELECT 1;

-- addLegChanges(writes, {legs, nextRunAt, settled: 'cancelled'}): the withdrawal's end too, alone
WITH w0 AS (UPDATE withdrawals SET payout_legs = $5::jsonb, next_run_at = $6::timestamptz, status = $1::text, amount_paid = $2::bigint, failure_reason = $3::text,
            completed_at = $4::timestamptz
WHERE id = $7::uuid) SELECT 1;

-- addWakeWallet(writes, walletId, except, now), alone
WITH w0 AS (UPDATE withdrawals SET next_run_at = $1::timestamptz
WHERE wallet_id = $2::uuid AND status = 'processing' AND id <> $3::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;

-- addReopen(writes, {row, legs, now}), alone
WITH w0 AS (UPDATE withdrawals SET status = 'processing', payout_legs = $1::jsonb, amount_paid = NULL, failure_reason = NULL, completed_at = NULL,
                      next_run_at = $2::timestamptz
WHERE id = $3::uuid) SELECT 1;

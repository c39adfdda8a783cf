-- The statements workflow-steps.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- provisionWallet(orgId, walletId): a creating wallet gets its addresses and goes idle
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
WITH w0 AS (UPDATE wallets SET status = $2::text, updated_at = $3::timestamptz, deposit_addresses = $1::jsonb WHERE id = $4::uuid), w1 AS (DELETE FROM wallet_provisions WHERE wallet_id = $5::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($6::uuid, $7, $8, $9::jsonb, $10::text, clock_timestamp())) SELECT 1;
COMMIT;

-- provisionWallet(orgId, walletId): a wallet no longer creating leaves wallet_provisions
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
WITH w0 AS (DELETE FROM wallet_provisions WHERE wallet_id = $1::uuid) SELECT 1;
COMMIT;

-- settleDeposit(due): a due deposit lands
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
     tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
FROM deposits WHERE id = $1::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp())), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($6::uuid, $7, $8, $9::jsonb, $10::text, clock_timestamp())), w2 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($11::uuid, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::timestamptz), ($18::uuid, $19::text, $20::text, $21::bigint, $22::bigint, $23::bigint, $24::timestamptz)
ON CONFLICT (wallet_id, position_id) DO UPDATE
  SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w3 AS (UPDATE deposits SET status = 'completed', completed_at = $25::timestamptz WHERE id = $26::uuid), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($27::uuid, $28, $29, $30::jsonb, $31::text, clock_timestamp())), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($32::uuid, $33, $34, $35::jsonb, $36::text, clock_timestamp())) SELECT 1;
COMMIT;

-- settleDeposit(due): on an autoRebalance wallet, with the rebalance that invests it
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
     tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
FROM deposits WHERE id = $1::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp())), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($6::uuid, $7, $8, $9::jsonb, $10::text, clock_timestamp())), w2 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($11::uuid, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::timestamptz), ($18::uuid, $19::text, $20::text, $21::bigint, $22::bigint, $23::bigint, $24::timestamptz)
ON CONFLICT (wallet_id, position_id) DO UPDATE
  SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w3 AS (UPDATE deposits SET status = 'completed', completed_at = $25::timestamptz WHERE id = $26::uuid), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($27::uuid, $28, $29, $30::jsonb, $31::text, clock_timestamp())), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($32::uuid, $33, $34, $35::jsonb, $36::text, clock_timestamp())) SELECT 1;
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz)), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($10::uuid, $11::text, $12::text, $13::bigint, $14::bigint, $15::bigint, $16::timestamptz)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($17::uuid, $18, $19, $20::jsonb, $21::text, clock_timestamp())) SELECT 1;
COMMIT;

-- settleDeposit(due): a deposit settled already, nothing to do
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
     tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
FROM deposits WHERE id = $1::uuid;
COMMIT;

-- advanceRebalance(due): created -> processing
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w;
SELECT q.wallet_id::text AS "walletId", q.rebalance_id::text AS "rebalanceId",
          EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = q.wallet_id AND o.status = 'processing') AS withdrawals,
          EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = q.wallet_id AND r.status = 'processing' AND r.id <> q.rebalance_id) AS rebalances,
          (SELECT json_build_object('id', id::text, 'walletId', wallet_id::text, 'orgId', org_id, 'requestId', request_id::text, 'status', status,
'allocations', allocations, 'reservations', reservations, 'nextRunAtMs', floor(extract(epoch FROM next_run_at) * 1000),
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000)) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = q.wallet_id) AS positions
     FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id);
WITH w0 AS (UPDATE rebalances SET status = 'processing', next_run_at = $1::timestamptz WHERE id = $2::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($3::uuid, $4, $5, $6::jsonb, $7::text, clock_timestamp())), w2 AS (UPDATE wallets SET status = $8::text, updated_at = $9::timestamptz WHERE id = $10::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($11::uuid, $12, $13, $14::jsonb, $15::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceRebalance(due): processing -> completed
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w;
SELECT q.wallet_id::text AS "walletId", q.rebalance_id::text AS "rebalanceId",
          EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = q.wallet_id AND o.status = 'processing') AS withdrawals,
          EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = q.wallet_id AND r.status = 'processing' AND r.id <> q.rebalance_id) AS rebalances,
          (SELECT json_build_object('id', id::text, 'walletId', wallet_id::text, 'orgId', org_id, 'requestId', request_id::text, 'status', status,
'allocations', allocations, 'reservations', reservations, 'nextRunAtMs', floor(extract(epoch FROM next_run_at) * 1000),
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000)) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = q.wallet_id) AS positions
     FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id);
WITH w0 AS (UPDATE rebalances SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($9::uuid, $10, $11, $12::jsonb, $13::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($14::uuid, $15, $16, $17::jsonb, $18::text, clock_timestamp())), w4 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($19::uuid, $20::text, $21::text, $22::bigint, $23::bigint, $24::bigint, $25::timestamptz), ($26::uuid, $27::text, $28::text, $29::bigint, $30::bigint, $31::bigint, $32::timestamptz)
ON CONFLICT (wallet_id, position_id) DO UPDATE
  SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($33::uuid, $34, $35, $36::jsonb, $37::text, clock_timestamp())), w6 AS (UPDATE wallets SET status = $38::text, updated_at = $39::timestamptz WHERE id = $40::uuid), w7 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($41::uuid, $42, $43, $44::jsonb, $45::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceRebalances([a step], {skipLocked: true}) (the worker's batch)
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w SKIP LOCKED;
SELECT q.wallet_id::text AS "walletId", q.rebalance_id::text AS "rebalanceId",
          EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = q.wallet_id AND o.status = 'processing') AS withdrawals,
          EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = q.wallet_id AND r.status = 'processing' AND r.id <> q.rebalance_id) AS rebalances,
          (SELECT json_build_object('id', id::text, 'walletId', wallet_id::text, 'orgId', org_id, 'requestId', request_id::text, 'status', status,
'allocations', allocations, 'reservations', reservations, 'nextRunAtMs', floor(extract(epoch FROM next_run_at) * 1000),
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000)) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = q.wallet_id) AS positions
     FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id);
WITH w0 AS (UPDATE rebalances SET status = 'processing', next_run_at = $1::timestamptz WHERE id = $2::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($3::uuid, $4, $5, $6::jsonb, $7::text, clock_timestamp())), w2 AS (UPDATE wallets SET status = $8::text, updated_at = $9::timestamptz WHERE id = $10::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($11::uuid, $12, $13, $14::jsonb, $15::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceWithdrawal(due): a new leg leaves planning
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
WITH w0 AS (UPDATE withdrawals SET payout_legs = $1::jsonb, next_run_at = $2::timestamptz
WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceWithdrawal(due): under a policy of 'all', the leg waits for approval with its activity
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)), w1 AS (UPDATE withdrawals SET payout_legs = $15::jsonb, next_run_at = $16::timestamptz
 WHERE id = $17::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($18::uuid, $19, $20, $21::jsonb, $22::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceWithdrawal(due): a broadcast leg confirms (sandbox: the armed failure taken first) and the withdrawal settles
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
DELETE FROM sandbox_payout_failures WHERE org_id = $1::text;
WITH w0 AS (UPDATE withdrawals SET payout_legs = $5::jsonb, next_run_at = $6::timestamptz, status = $1::text, amount_paid = $2::bigint, failure_reason = $3::text,
            completed_at = $4::timestamptz
WHERE id = $7::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($8::uuid, $9, $10, $11::jsonb, $12::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($13::uuid, $14, $15, $16::jsonb, $17::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($18::uuid, $19, $20, $21::jsonb, $22::text, clock_timestamp())), w4 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($23::uuid, $24::text, $25::text, $26::bigint, $27::bigint, $28::bigint, $29::timestamptz), ($30::uuid, $31::text, $32::text, $33::bigint, $34::bigint, $35::bigint, $36::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($37::uuid, $38, $39, $40::jsonb, $41::text, clock_timestamp())), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($42::uuid, $43, $44, $45::jsonb, $46::text, clock_timestamp())), w7 AS (UPDATE wallets SET status = $47::text, updated_at = $48::timestamptz WHERE id = $49::uuid), w8 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($50::uuid, $51, $52, $53::jsonb, $54::text, clock_timestamp())), w9 AS (UPDATE withdrawals SET next_run_at = $55::timestamptz
WHERE wallet_id = $56::uuid AND status = 'processing' AND id <> $57::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
COMMIT;

-- advanceWithdrawal(due): a leg whose approval deadline passed fails, its money freed
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (UPDATE withdrawals SET payout_legs = $8::jsonb, next_run_at = $9::timestamptz, status = $4::text, amount_paid = $5::bigint, failure_reason = $6::text,
            completed_at = $7::timestamptz
WHERE id = $10::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($11::uuid, $12, $13, $14::jsonb, $15::text, clock_timestamp())), w3 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($16::uuid, $17::text, $18::text, $19::bigint, $20::bigint, $21::bigint, $22::timestamptz), ($23::uuid, $24::text, $25::text, $26::bigint, $27::bigint, $28::bigint, $29::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($30::uuid, $31, $32, $33::jsonb, $34::text, clock_timestamp())), w5 AS (UPDATE wallets SET status = $35::text, updated_at = $36::timestamptz WHERE id = $37::uuid), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($38::uuid, $39, $40, $41::jsonb, $42::text, clock_timestamp())), w7 AS (UPDATE withdrawals SET next_run_at = $43::timestamptz
WHERE wallet_id = $44::uuid AND status = 'processing' AND id <> $45::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
COMMIT;

-- expireDepositAddressSetup(due): the setup and its activity fail
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (UPDATE deposit_address_approvals SET status = $4::text, updated_at = $5::timestamptz WHERE id = $6::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($7::uuid, $8, $9, $10::jsonb, $11::text, clock_timestamp())) SELECT 1;
COMMIT;

-- expireApprovalChange(due): under the organization's approvals lock, the change and its activity fail
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM approval_changes WHERE id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (UPDATE approval_changes SET status = $4::text, updated_at = $5::timestamptz WHERE id = $6::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($7::uuid, $8, $9, $10::jsonb, $11::text, clock_timestamp())) SELECT 1;
COMMIT;

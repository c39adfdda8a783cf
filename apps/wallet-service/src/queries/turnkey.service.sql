-- The statements turnkey.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- approvalRequest(ctx, {activityId, 'approve'})
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;

-- vote(ctx, approve, quorum 1) on a payout leg: the leg goes on, the wallet's other withdrawals look again
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (UPDATE withdrawals SET payout_legs = $1::jsonb, next_run_at = $2::timestamptz
WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())), w2 AS (UPDATE withdrawals SET next_run_at = $9::timestamptz
WHERE wallet_id = $10::uuid AND status = 'processing' AND id <> $11::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, reject) on a payout leg: the leg is cancelled and, its only leg, the withdrawal settles
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $4::text, $5::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($6::uuid[], $7::text[],
              $8::text[], $9::text[],
              $10::bigint[], $11::bigint[],
              $12::bigint[], $13::int[],
              $14::timestamptz[],
              $15::bigint[],
              $16::timestamptz[],
              $17::bigint[], $18::text[],
              $19::text[], $20::text[],
              $21::text[],
              $22::text[],
              $23::timestamptz[],
              $24::bigint[], $25::bigint[],
              $26::bigint[], $27::bigint[],
              $28::bigint[], $29::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w2 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($30::uuid, $31::text, $32::text, $33::bigint, $34::bigint, $35::bigint, $36::timestamptz, $37::jsonb, $38::jsonb), ($39::uuid, $40::text, $41::text, $42::bigint, $43::bigint, $44::bigint, $45::timestamptz, $46::jsonb, $47::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w3 AS (UPDATE withdrawals SET payout_legs = $52::jsonb, next_run_at = $53::timestamptz, status = $48::text, amount_paid = $49::bigint, failure_reason = $50::text,
             completed_at = $51::timestamptz
 WHERE id = $54::uuid), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($55::uuid, $56, $57, $58::jsonb, $59::text, clock_timestamp())), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($60::uuid, $61, $62, $63::jsonb, $64::text, clock_timestamp())), w6 AS (UPDATE withdrawals SET next_run_at = $65::timestamptz
 WHERE wallet_id = $66::uuid AND status = 'processing' AND id <> $67::uuid
   AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;
WITH w0 AS (UPDATE wallets SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, approve, quorum 2): recorded, the quorum not reached yet
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
COMMIT;

-- vote(ctx, approve) on an activity completed already: answered as it is
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
COMMIT;

-- vote(ctx, approve) on a Stellar setup: approved, its address added to the wallet
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE id = $1::uuid;
WITH w0 AS (UPDATE wallets SET deposit_addresses = $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (UPDATE deposit_address_approvals SET status = $4::text, updated_at = $5::timestamptz WHERE id = $6::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($7::uuid, $8, $9, $10::jsonb, $11::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, reject) on a Stellar setup
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE id = $1::uuid;
WITH w0 AS (UPDATE deposit_address_approvals SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, approve) on a change adding an approver: applied with its audit entry, the change approved
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM approval_changes WHERE id = $1::uuid;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
WITH w0 AS (INSERT INTO approvers (id, org_id, label, public_key, created_at)
VALUES ($1::uuid, $2::text, $3::text, $4::text,
        $5::timestamptz)), w1 AS (INSERT INTO approval_audit (id, org_id, principal_id, action, before, after, activity_id, approved_by, created_at)
VALUES ($6::uuid, $7::text, $8::text, $9::text,
        $10::jsonb, $11::jsonb, $12::uuid, $13::jsonb, $14::timestamptz)) SELECT 1;
WITH w0 AS (UPDATE approval_changes SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, approve) on a change adding an approver of a key added meanwhile: the change failed
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM approval_changes WHERE id = $1::uuid;
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
WITH w0 AS (UPDATE approval_changes SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- vote(ctx, reject) on a change
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;
SELECT id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM approval_changes WHERE id = $1::uuid;
WITH w0 AS (UPDATE approval_changes SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;
COMMIT;

-- The statements deposit-addresses.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- enable(ctx, {walletId, 'stellar_testnet'}): the first setup
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2;
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)), w1 AS (INSERT INTO deposit_address_approvals (id, wallet_id, org_id, chain, status, activity_id, due_at, created_at, updated_at)
  VALUES ($15::uuid, $16::uuid, $17::text, $18::text, 'pending', $19::uuid,
          $20::timestamptz, $21::timestamptz, $22::timestamptz)), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($23::uuid, $24, $25, $26::jsonb, $27::text, clock_timestamp())) SELECT 1;
COMMIT;

-- enable(ctx, ...): after a rejected setup, started again
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2;
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)), w1 AS (UPDATE deposit_address_approvals SET status = 'pending', activity_id = $15::uuid, due_at = $16::timestamptz,
    updated_at = $17::timestamptz WHERE id = $18::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($19::uuid, $20, $21, $22::jsonb, $23::text, clock_timestamp())) SELECT 1;
COMMIT;

-- enable(ctx, ...): a pending setup, answered as it is
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2;
COMMIT;

-- enable(ctx, ...): no approvers, rolled back
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2;
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
ROLLBACK;

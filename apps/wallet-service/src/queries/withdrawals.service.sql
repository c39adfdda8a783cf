-- The statements withdrawals.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- create(ctx, {walletId, requestId, 'ethereum_sepolia', address, 30 USD})
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances, (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
      floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
 FROM positions pos WHERE pos.wallet_id = $1::uuid) AS positions;
WITH w0 AS (INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token,
                         payout_legs, next_run_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::bigint, $7::bigint, $8::text,
        $9::text, $10::text, $11::jsonb,
        $12::timestamptz, $13::timestamptz)), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($14::uuid, $15, $16, $17::jsonb, $18::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($19::uuid, $20, $21, $22::jsonb, $23::text, clock_timestamp())), w3 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($24::uuid, $25::text, $26::text, $27::bigint, $28::bigint, $29::bigint, $30::timestamptz), ($31::uuid, $32::text, $33::text, $34::bigint, $35::bigint, $36::bigint, $37::timestamptz)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w4 AS (UPDATE wallets SET status = $38::text, updated_at = $39::timestamptz WHERE id = $40::uuid), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($41::uuid, $42, $43, $44::jsonb, $45::text, clock_timestamp())) SELECT 1;
COMMIT;

-- create(ctx, ...): a replay, the first withdrawal read
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances, (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
      floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
 FROM positions pos WHERE pos.wallet_id = $1::uuid) AS positions;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid;
COMMIT;

-- get(ctx, {walletId, withdrawalId}) (its wallet checked through Prisma)
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;

-- preview(ctx, {walletId, destinationChain})
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2;

-- cancel(ctx, {walletId, withdrawalId}): without a requestId
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($1::uuid, $2::text, $3::text, $4::bigint, $5::bigint, $6::bigint, $7::timestamptz), ($8::uuid, $9::text, $10::text, $11::bigint, $12::bigint, $13::bigint, $14::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w1 AS (UPDATE withdrawals SET payout_legs = $19::jsonb, next_run_at = $20::timestamptz, status = $15::text, amount_paid = $16::bigint, failure_reason = $17::text,
            completed_at = $18::timestamptz
WHERE id = $21::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($22::uuid, $23, $24, $25::jsonb, $26::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($27::uuid, $28, $29, $30::jsonb, $31::text, clock_timestamp())), w4 AS (UPDATE withdrawals SET next_run_at = $32::timestamptz
WHERE wallet_id = $33::uuid AND status = 'processing' AND id <> $34::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;
WITH w0 AS (UPDATE wallets SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
COMMIT;

-- cancel(ctx, {walletId, withdrawalId, requestId}): idempotent, the answer remembered
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($1::uuid, $2::text, $3::text, $4::bigint, $5::bigint, $6::bigint, $7::timestamptz), ($8::uuid, $9::text, $10::text, $11::bigint, $12::bigint, $13::bigint, $14::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w1 AS (UPDATE withdrawals SET payout_legs = $19::jsonb, next_run_at = $20::timestamptz, status = $15::text, amount_paid = $16::bigint, failure_reason = $17::text,
            completed_at = $18::timestamptz
WHERE id = $21::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($22::uuid, $23, $24, $25::jsonb, $26::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($27::uuid, $28, $29, $30::jsonb, $31::text, clock_timestamp())), w4 AS (UPDATE withdrawals SET next_run_at = $32::timestamptz
WHERE wallet_id = $33::uuid AND status = 'processing' AND id <> $34::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;
WITH w0 AS (UPDATE wallets SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
WITH w0 AS (UPDATE idempotency_keys SET response = $1::jsonb
WHERE org_id = $2::text AND operation = $3::text AND request_id = $4::uuid) SELECT 1;
COMMIT;

-- cancel(ctx, {..., requestId}): a replay, answered as first
BEGIN;
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;
COMMIT;

-- retryPayout(ctx, {walletId, withdrawalId, payoutId}): a settled withdrawal reopens
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($1::uuid, $2::text, $3::text, $4::bigint, $5::bigint, $6::bigint, $7::timestamptz), ($8::uuid, $9::text, $10::text, $11::bigint, $12::bigint, $13::bigint, $14::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w1 AS (UPDATE withdrawals SET status = 'processing', payout_legs = $15::jsonb, amount_paid = NULL, failure_reason = NULL, completed_at = NULL,
                      next_run_at = $16::timestamptz
WHERE id = $17::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($18::uuid, $19, $20, $21::jsonb, $22::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($23::uuid, $24, $25, $26::jsonb, $27::text, clock_timestamp())) SELECT 1;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;
COMMIT;

-- retryPayout(ctx, ...): the withdrawal still processing
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($1::uuid, $2::text, $3::text, $4::bigint, $5::bigint, $6::bigint, $7::timestamptz), ($8::uuid, $9::text, $10::text, $11::bigint, $12::bigint, $13::bigint, $14::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w1 AS (UPDATE withdrawals SET payout_legs = $15::jsonb, next_run_at = $16::timestamptz
WHERE id = $17::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($18::uuid, $19, $20, $21::jsonb, $22::text, clock_timestamp())) SELECT 1;
COMMIT;

-- cancelPayout(ctx, {walletId, withdrawalId, payoutId}): its only leg, so the withdrawal settles
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt" FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt"
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($4::uuid, $5::text, $6::text, $7::bigint, $8::bigint, $9::bigint, $10::timestamptz), ($11::uuid, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::timestamptz)
 ON CONFLICT (wallet_id, position_id) DO UPDATE
   SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at), w2 AS (UPDATE withdrawals SET payout_legs = $22::jsonb, next_run_at = $23::timestamptz, status = $18::text, amount_paid = $19::bigint, failure_reason = $20::text,
            completed_at = $21::timestamptz
WHERE id = $24::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($25::uuid, $26, $27, $28::jsonb, $29::text, clock_timestamp())), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($30::uuid, $31, $32, $33::jsonb, $34::text, clock_timestamp())), w5 AS (UPDATE withdrawals SET next_run_at = $35::timestamptz
WHERE wallet_id = $36::uuid AND status = 'processing' AND id <> $37::uuid
  AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb) SELECT 1;
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;
WITH w0 AS (UPDATE wallets SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;
COMMIT;

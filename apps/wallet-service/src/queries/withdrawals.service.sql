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
      floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
 FROM positions pos WHERE pos.wallet_id = $1::uuid) AS positions;
WITH w0 AS (INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token,
                         payout_legs, next_run_at, created_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::bigint, $7::bigint, $8::text,
        $9::text, $10::text, $11::jsonb,
        $12::timestamptz, $13::timestamptz)), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($14::uuid, $15, $16, $17::jsonb, $18::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($19::uuid, $20, $21, $22::jsonb, $23::text, clock_timestamp())), w3 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $24::text, $25::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($26::uuid[], $27::text[],
              $28::text[], $29::text[],
              $30::bigint[], $31::bigint[],
              $32::bigint[], $33::int[],
              $34::timestamptz[],
              $35::bigint[],
              $36::timestamptz[],
              $37::bigint[], $38::text[],
              $39::text[], $40::text[],
              $41::text[],
              $42::text[],
              $43::timestamptz[],
              $44::bigint[], $45::bigint[],
              $46::bigint[], $47::bigint[],
              $48::bigint[], $49::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w4 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($50::uuid, $51::text, $52::text, $53::bigint, $54::bigint, $55::bigint, $56::timestamptz, $57::jsonb, $58::jsonb), ($59::uuid, $60::text, $61::text, $62::bigint, $63::bigint, $64::bigint, $65::timestamptz, $66::jsonb, $67::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w5 AS (UPDATE wallets SET status = $68::text, updated_at = $69::timestamptz WHERE id = $70::uuid), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($71::uuid, $72, $73, $74::jsonb, $75::text, clock_timestamp())) SELECT 1;
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
      floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
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
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $1::text, $2::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($3::uuid[], $4::text[],
              $5::text[], $6::text[],
              $7::bigint[], $8::bigint[],
              $9::bigint[], $10::int[],
              $11::timestamptz[],
              $12::bigint[],
              $13::timestamptz[],
              $14::bigint[], $15::text[],
              $16::text[], $17::text[],
              $18::text[],
              $19::text[],
              $20::timestamptz[],
              $21::bigint[], $22::bigint[],
              $23::bigint[], $24::bigint[],
              $25::bigint[], $26::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($27::uuid, $28::text, $29::text, $30::bigint, $31::bigint, $32::bigint, $33::timestamptz, $34::jsonb, $35::jsonb), ($36::uuid, $37::text, $38::text, $39::bigint, $40::bigint, $41::bigint, $42::timestamptz, $43::jsonb, $44::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (UPDATE withdrawals SET payout_legs = $49::jsonb, next_run_at = $50::timestamptz, status = $45::text, amount_paid = $46::bigint, failure_reason = $47::text,
             completed_at = $48::timestamptz
 WHERE id = $51::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($52::uuid, $53, $54, $55::jsonb, $56::text, clock_timestamp())), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($57::uuid, $58, $59, $60::jsonb, $61::text, clock_timestamp())), w5 AS (UPDATE withdrawals SET next_run_at = $62::timestamptz
 WHERE wallet_id = $63::uuid AND status = 'processing' AND id <> $64::uuid
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
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $1::text, $2::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($3::uuid[], $4::text[],
              $5::text[], $6::text[],
              $7::bigint[], $8::bigint[],
              $9::bigint[], $10::int[],
              $11::timestamptz[],
              $12::bigint[],
              $13::timestamptz[],
              $14::bigint[], $15::text[],
              $16::text[], $17::text[],
              $18::text[],
              $19::text[],
              $20::timestamptz[],
              $21::bigint[], $22::bigint[],
              $23::bigint[], $24::bigint[],
              $25::bigint[], $26::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($27::uuid, $28::text, $29::text, $30::bigint, $31::bigint, $32::bigint, $33::timestamptz, $34::jsonb, $35::jsonb), ($36::uuid, $37::text, $38::text, $39::bigint, $40::bigint, $41::bigint, $42::timestamptz, $43::jsonb, $44::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (UPDATE withdrawals SET payout_legs = $49::jsonb, next_run_at = $50::timestamptz, status = $45::text, amount_paid = $46::bigint, failure_reason = $47::text,
             completed_at = $48::timestamptz
 WHERE id = $51::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($52::uuid, $53, $54, $55::jsonb, $56::text, clock_timestamp())), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($57::uuid, $58, $59, $60::jsonb, $61::text, clock_timestamp())), w5 AS (UPDATE withdrawals SET next_run_at = $62::timestamptz
 WHERE wallet_id = $63::uuid AND status = 'processing' AND id <> $64::uuid
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
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $1::text, $2::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($3::uuid[], $4::text[],
              $5::text[], $6::text[],
              $7::bigint[], $8::bigint[],
              $9::bigint[], $10::int[],
              $11::timestamptz[],
              $12::bigint[],
              $13::timestamptz[],
              $14::bigint[], $15::text[],
              $16::text[], $17::text[],
              $18::text[],
              $19::text[],
              $20::timestamptz[],
              $21::bigint[], $22::bigint[],
              $23::bigint[], $24::bigint[],
              $25::bigint[], $26::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($27::uuid, $28::text, $29::text, $30::bigint, $31::bigint, $32::bigint, $33::timestamptz, $34::jsonb, $35::jsonb), ($36::uuid, $37::text, $38::text, $39::bigint, $40::bigint, $41::bigint, $42::timestamptz, $43::jsonb, $44::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (UPDATE withdrawals SET status = 'processing', payout_legs = $45::jsonb, amount_paid = NULL, failure_reason = NULL, completed_at = NULL,
                       next_run_at = $46::timestamptz
 WHERE id = $47::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($48::uuid, $49, $50, $51::jsonb, $52::text, clock_timestamp())), w4 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($53::uuid, $54, $55, $56::jsonb, $57::text, clock_timestamp())) SELECT 1;
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
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $1::text, $2::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($3::uuid[], $4::text[],
              $5::text[], $6::text[],
              $7::bigint[], $8::bigint[],
              $9::bigint[], $10::int[],
              $11::timestamptz[],
              $12::bigint[],
              $13::timestamptz[],
              $14::bigint[], $15::text[],
              $16::text[], $17::text[],
              $18::text[],
              $19::text[],
              $20::timestamptz[],
              $21::bigint[], $22::bigint[],
              $23::bigint[], $24::bigint[],
              $25::bigint[], $26::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($27::uuid, $28::text, $29::text, $30::bigint, $31::bigint, $32::bigint, $33::timestamptz, $34::jsonb, $35::jsonb), ($36::uuid, $37::text, $38::text, $39::bigint, $40::bigint, $41::bigint, $42::timestamptz, $43::jsonb, $44::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (UPDATE withdrawals SET payout_legs = $45::jsonb, next_run_at = $46::timestamptz
 WHERE id = $47::uuid), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($48::uuid, $49, $50, $51::jsonb, $52::text, clock_timestamp())) SELECT 1;
COMMIT;

-- cancelPayout(ctx, {walletId, withdrawalId, payoutId}): its only leg, so the withdrawal settles
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
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
COMMIT;

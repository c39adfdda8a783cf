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
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp())), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($6::uuid, $7, $8, $9::jsonb, $10::text, clock_timestamp())), w2 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
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
 ORDER BY u.ordinal), w3 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($37::uuid, $38::text, $39::text, $40::bigint, $41::bigint, $42::bigint, $43::timestamptz, $44::jsonb, $45::jsonb), ($46::uuid, $47::text, $48::text, $49::bigint, $50::bigint, $51::bigint, $52::timestamptz, $53::jsonb, $54::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w4 AS (UPDATE deposits SET status = 'completed', completed_at = $55::timestamptz WHERE id = $56::uuid), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($57::uuid, $58, $59, $60::jsonb, $61::text, clock_timestamp())), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($62::uuid, $63, $64, $65::jsonb, $66::text, clock_timestamp())) SELECT 1;
COMMIT;

-- settleDeposit(due): on an autoRebalance wallet, with the rebalance that invests it
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
     tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
FROM deposits WHERE id = $1::uuid;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
WITH w0 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp())), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($6::uuid, $7, $8, $9::jsonb, $10::text, clock_timestamp())), w2 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
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
 ORDER BY u.ordinal), w3 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($37::uuid, $38::text, $39::text, $40::bigint, $41::bigint, $42::bigint, $43::timestamptz, $44::jsonb, $45::jsonb), ($46::uuid, $47::text, $48::text, $49::bigint, $50::bigint, $51::bigint, $52::timestamptz, $53::jsonb, $54::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w4 AS (UPDATE deposits SET status = 'completed', completed_at = $55::timestamptz WHERE id = $56::uuid), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($57::uuid, $58, $59, $60::jsonb, $61::text, clock_timestamp())), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($62::uuid, $63, $64, $65::jsonb, $66::text, clock_timestamp())) SELECT 1;
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at, exit_source)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz,
        $10::text)), w1 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($11::uuid, $12::text, $13::text, $14::bigint, $15::bigint, $16::bigint, $17::timestamptz, $18::jsonb, $19::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($20::uuid, $21, $22, $23::jsonb, $24::text, clock_timestamp())) SELECT 1;
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
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000),
'exitSource', exit_source) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
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
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000),
'exitSource', exit_source) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = q.wallet_id) AS positions
     FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id);
WITH w0 AS (UPDATE rebalances SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($9::uuid, $10, $11, $12::jsonb, $13::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($14::uuid, $15, $16, $17::jsonb, $18::text, clock_timestamp())), w4 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $19::text, $20::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($21::uuid[], $22::text[],
              $23::text[], $24::text[],
              $25::bigint[], $26::bigint[],
              $27::bigint[], $28::int[],
              $29::timestamptz[],
              $30::bigint[],
              $31::timestamptz[],
              $32::bigint[], $33::text[],
              $34::text[], $35::text[],
              $36::text[],
              $37::text[],
              $38::timestamptz[],
              $39::bigint[], $40::bigint[],
              $41::bigint[], $42::bigint[],
              $43::bigint[], $44::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w5 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($45::uuid, $46::text, $47::text, $48::bigint, $49::bigint, $50::bigint, $51::timestamptz, $52::jsonb, $53::jsonb), ($54::uuid, $55::text, $56::text, $57::bigint, $58::bigint, $59::bigint, $60::timestamptz, $61::jsonb, $62::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($63::uuid, $64, $65, $66::jsonb, $67::text, clock_timestamp())), w7 AS (UPDATE wallets SET status = $68::text, updated_at = $69::timestamptz WHERE id = $70::uuid), w8 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($71::uuid, $72, $73, $74::jsonb, $75::text, clock_timestamp())) SELECT 1;
COMMIT;

-- advanceRebalance(due): a risk exit completes and sweeps what its source earned meanwhile
BEGIN;
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w;
SELECT q.wallet_id::text AS "walletId", q.rebalance_id::text AS "rebalanceId",
          EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = q.wallet_id AND o.status = 'processing') AS withdrawals,
          EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = q.wallet_id AND r.status = 'processing' AND r.id <> q.rebalance_id) AS rebalances,
          (SELECT json_build_object('id', id::text, 'walletId', wallet_id::text, 'orgId', org_id, 'requestId', request_id::text, 'status', status,
'allocations', allocations, 'reservations', reservations, 'nextRunAtMs', floor(extract(epoch FROM next_run_at) * 1000),
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000),
'exitSource', exit_source) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = q.wallet_id) AS positions
     FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id);
WITH w0 AS (UPDATE rebalances SET status = 'completed', completed_at = $1::timestamptz,
       allocations = $2::jsonb WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($9::uuid, $10, $11, $12::jsonb, $13::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($14::uuid, $15, $16, $17::jsonb, $18::text, clock_timestamp())), w4 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $19::text, $20::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($21::uuid[], $22::text[],
              $23::text[], $24::text[],
              $25::bigint[], $26::bigint[],
              $27::bigint[], $28::int[],
              $29::timestamptz[],
              $30::bigint[],
              $31::timestamptz[],
              $32::bigint[], $33::text[],
              $34::text[], $35::text[],
              $36::text[],
              $37::text[],
              $38::timestamptz[],
              $39::bigint[], $40::bigint[],
              $41::bigint[], $42::bigint[],
              $43::bigint[], $44::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w5 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($45::uuid, $46::text, $47::text, $48::bigint, $49::bigint, $50::bigint, $51::timestamptz, $52::jsonb, $53::jsonb), ($54::uuid, $55::text, $56::text, $57::bigint, $58::bigint, $59::bigint, $60::timestamptz, $61::jsonb, $62::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($63::uuid, $64, $65, $66::jsonb, $67::text, clock_timestamp())), w7 AS (UPDATE wallets SET status = $68::text, updated_at = $69::timestamptz WHERE id = $70::uuid), w8 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($71::uuid, $72, $73, $74::jsonb, $75::text, clock_timestamp())) SELECT 1;
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
'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000),
'exitSource', exit_source) FROM rebalances WHERE id = q.rebalance_id) AS row,
          (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
DELETE FROM sandbox_payout_failures WHERE org_id = $1::text;
WITH w0 AS (UPDATE withdrawals SET payout_legs = $5::jsonb, next_run_at = $6::timestamptz, status = $1::text, amount_paid = $2::bigint, failure_reason = $3::text,
             completed_at = $4::timestamptz
 WHERE id = $7::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($8::uuid, $9, $10, $11::jsonb, $12::text, clock_timestamp())), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($13::uuid, $14, $15, $16::jsonb, $17::text, clock_timestamp())), w3 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($18::uuid, $19, $20, $21::jsonb, $22::text, clock_timestamp())), w4 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $23::text, $24::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($25::uuid[], $26::text[],
              $27::text[], $28::text[],
              $29::bigint[], $30::bigint[],
              $31::bigint[], $32::int[],
              $33::timestamptz[],
              $34::bigint[],
              $35::timestamptz[],
              $36::bigint[], $37::text[],
              $38::text[], $39::text[],
              $40::text[],
              $41::text[],
              $42::timestamptz[],
              $43::bigint[], $44::bigint[],
              $45::bigint[], $46::bigint[],
              $47::bigint[], $48::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w5 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($49::uuid, $50::text, $51::text, $52::bigint, $53::bigint, $54::bigint, $55::timestamptz, $56::jsonb, $57::jsonb), ($58::uuid, $59::text, $60::text, $61::bigint, $62::bigint, $63::bigint, $64::timestamptz, $65::jsonb, $66::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w6 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($67::uuid, $68, $69, $70::jsonb, $71::text, clock_timestamp())), w7 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($72::uuid, $73, $74, $75::jsonb, $76::text, clock_timestamp())), w8 AS (UPDATE wallets SET status = $77::text, updated_at = $78::timestamptz WHERE id = $79::uuid), w9 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($80::uuid, $81, $82, $83::jsonb, $84::text, clock_timestamp())), w10 AS (UPDATE withdrawals SET next_run_at = $85::timestamptz
 WHERE wallet_id = $86::uuid AND status = 'processing' AND id <> $87::uuid
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
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.wallet_id) AS positions
     FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
    WHERE w.id = $1::uuid;
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (UPDATE withdrawals SET payout_legs = $8::jsonb, next_run_at = $9::timestamptz, status = $4::text, amount_paid = $5::bigint, failure_reason = $6::text,
             completed_at = $7::timestamptz
 WHERE id = $10::uuid), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($11::uuid, $12, $13, $14::jsonb, $15::text, clock_timestamp())), w3 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $16::text, $17::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($18::uuid[], $19::text[],
              $20::text[], $21::text[],
              $22::bigint[], $23::bigint[],
              $24::bigint[], $25::int[],
              $26::timestamptz[],
              $27::bigint[],
              $28::timestamptz[],
              $29::bigint[], $30::text[],
              $31::text[], $32::text[],
              $33::text[],
              $34::text[],
              $35::timestamptz[],
              $36::bigint[], $37::bigint[],
              $38::bigint[], $39::bigint[],
              $40::bigint[], $41::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal), w4 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($42::uuid, $43::text, $44::text, $45::bigint, $46::bigint, $47::bigint, $48::timestamptz, $49::jsonb, $50::jsonb), ($51::uuid, $52::text, $53::text, $54::bigint, $55::bigint, $56::bigint, $57::timestamptz, $58::jsonb, $59::jsonb)
  ON CONFLICT (wallet_id, position_id) DO UPDATE
    SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
        lots = EXCLUDED.lots, totals = EXCLUDED.totals), w5 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($60::uuid, $61, $62, $63::jsonb, $64::text, clock_timestamp())), w6 AS (UPDATE wallets SET status = $65::text, updated_at = $66::timestamptz WHERE id = $67::uuid), w7 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($68::uuid, $69, $70, $71::jsonb, $72::text, clock_timestamp())), w8 AS (UPDATE withdrawals SET next_run_at = $73::timestamptz
 WHERE wallet_id = $74::uuid AND status = 'processing' AND id <> $75::uuid
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

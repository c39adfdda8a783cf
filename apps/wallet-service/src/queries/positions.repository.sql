-- The statements positions.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- openLedger(tx, walletId, env, now)
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;

-- ledgerWithRunningQuery(walletId, env, now)
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances, (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
      floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
 FROM positions pos WHERE pos.wallet_id = $1::uuid) AS positions;

-- ledgersForRebalancesQuery({steps: [two], rebalanceJson: REBALANCE_JSON}, env, now) (through rebalanceStepsQuery)
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

-- addLedger(writes, a ledger with two changed positions), alone
WITH w0 AS (INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ($1::uuid, $2::text, $3::text, $4::bigint, $5::bigint, $6::bigint, $7::timestamptz, $8::jsonb, $9::jsonb), ($10::uuid, $11::text, $12::text, $13::bigint, $14::bigint, $15::bigint, $16::timestamptz, $17::jsonb, $18::jsonb)
ON CONFLICT (wallet_id, position_id) DO UPDATE
  SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
      lots = EXCLUDED.lots, totals = EXCLUDED.totals) SELECT 1;

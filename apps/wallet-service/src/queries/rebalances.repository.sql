-- The statements rebalances.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- addRebalance(writes, {10 USD from cash to JAAA}): the rebalance and its held cash, alone
WITH w0 AS (INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at, exit_source)
VALUES ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text,
        $6::jsonb, $7::jsonb, $8::timestamptz, $9::timestamptz,
        $10::text)) SELECT 1;

-- rebalanceStepsQuery([a step], env, now)
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

-- addStartProcessing(writes, rebalance, nextRunAt), alone
WITH w0 AS (UPDATE rebalances SET status = 'processing', next_run_at = $1::timestamptz WHERE id = $2::uuid) SELECT 1;

-- addFinish(writes, rebalance, 'completed', now), alone
WITH w0 AS (UPDATE rebalances SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- addFinishWithAllocations(writes, rebalance, now): a risk exit with its sweep, alone
WITH w0 AS (UPDATE rebalances SET status = 'completed', completed_at = $1::timestamptz,
allocations = $2::jsonb WHERE id = $3::uuid) SELECT 1;

-- The statements due-work.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- findDueWork(sql, now, take 64): the planning setting and the look in one round trip
SELECT set_config('enable_bitmapscan', 'off', true);
SELECT kind, id, "orgId", "walletId" FROM (
  (SELECT 0 AS kind, wallet_id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", NULL::timestamptz AS created_at
     FROM wallet_provisions ORDER BY created_at LIMIT $1::int)
  UNION ALL
  (SELECT 1, id::text, org_id, wallet_id::text, NULL FROM deposits WHERE status = 'processing' AND settle_at <= $2::timestamptz LIMIT $1::int)
  UNION ALL
  (SELECT 2, id::text, org_id, wallet_id::text, created_at FROM rebalances
    WHERE status IN ('created', 'processing') AND next_run_at <= $2::timestamptz ORDER BY created_at LIMIT $1::int)
  UNION ALL
  (SELECT 3, id::text, org_id, wallet_id::text, created_at FROM withdrawals
    WHERE status = 'processing' AND next_run_at <= $2::timestamptz ORDER BY created_at LIMIT $1::int)
  UNION ALL
  (SELECT 4, id::text, org_id, wallet_id::text, NULL FROM deposit_address_approvals WHERE status = 'pending' AND due_at <= $2::timestamptz LIMIT $1::int)
  UNION ALL
  (SELECT 5, id::text, org_id, '', NULL FROM approval_changes WHERE status = 'pending' AND due_at <= $2::timestamptz LIMIT $1::int)
) due ORDER BY kind, created_at;

-- addUnlistedProvisions(sql)
INSERT INTO wallet_provisions (wallet_id, org_id, created_at) SELECT id, org_id, created_at FROM wallets WHERE status = 'creating' ON CONFLICT (wallet_id) DO NOTHING;

-- forgetProvision(tx, walletId)
WITH w0 AS (DELETE FROM wallet_provisions WHERE wallet_id = $1::uuid) SELECT 1;

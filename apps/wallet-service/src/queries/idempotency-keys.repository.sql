-- The statements idempotency-keys.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- claimRequestId(tx, key): claimed
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;

-- claimRequestId(tx, key): claimed before, the first claim read
INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;

-- lockWalletAndClaim(tx, walletId, key): claimed
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;

-- lockWalletAndClaim(tx, walletId, key): claimed before, the first claim read
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid;

-- lockWalletAndClaimThen(tx, walletId, key, ledgerQuery(...)): claimed
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;

-- lockWalletAndClaimThenAlso(tx, walletId, key, ledgerQuery(...), blockedSourcesQuery(walletId)): claimed
WITH claim AS (
     INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w;
SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
FROM positions WHERE wallet_id = $1::uuid;
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;

-- rememberResponse(tx, {orgId, 'wallet.create', requestId}, response)
WITH w0 AS (UPDATE idempotency_keys SET response = $1::jsonb
WHERE org_id = $2::text AND operation = $3::text AND request_id = $4::uuid) SELECT 1;

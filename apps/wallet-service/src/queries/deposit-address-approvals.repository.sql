-- The statements deposit-address-approvals.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- findSetup(tx, walletId, 'stellar_testnet')
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2;

-- addStartSetup(writes, {..., existing: null}): a new setup, alone
WITH w0 AS (INSERT INTO deposit_address_approvals (id, wallet_id, org_id, chain, status, activity_id, due_at, created_at, updated_at)
VALUES ($1::uuid, $2::uuid, $3::text, $4::text, 'pending', $5::uuid,
        $6::timestamptz, $7::timestamptz, $8::timestamptz)) SELECT 1;

-- addStartSetup(writes, {..., existing: a rejected setup}): the setup again, alone
WITH w0 AS (UPDATE deposit_address_approvals SET status = 'pending', activity_id = $1::uuid, due_at = $2::timestamptz,
updated_at = $3::timestamptz WHERE id = $4::uuid) SELECT 1;

-- addSetupStatus(writes, setup, 'approved', now), alone
WITH w0 AS (UPDATE deposit_address_approvals SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- getApproval(tx, approvalId)
SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM deposit_address_approvals WHERE id = $1::uuid;

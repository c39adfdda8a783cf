-- The statements approvals.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- findApproverByKey(tx, orgId, publicKey)
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2;

-- readApprovalRules(tx, orgId)
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;

-- lockApprovals(tx, orgId): Prisma's tagged template
SELECT pg_advisory_xact_lock(hashtext($1));

-- lockApprovalsSql(tx, orgId)
SELECT pg_advisory_xact_lock(hashtext($1));

-- addActivity(writes, {kind 'withdrawal_payout', quorum 1, subject, validBefore, now}), alone
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)) SELECT 1;

-- findActivity(db, orgId, activityId)
SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
     setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
FROM approval_activities WHERE id = $1::uuid AND org_id = $2;

-- addEndActivity(writes, activityId, 'FAILED', now), alone
WITH w0 AS (UPDATE approval_activities SET status = $1::text, completed_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- recordVote(tx, {activityId, publicKey, approverId, action 'approve', createdAt})
INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING;

-- votesOn(tx, activityId)
SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
FROM approval_votes WHERE activity_id = $1::uuid;

-- The statements approval-changes.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- addStartChange(writes, a pending change), alone
WITH w0 AS (INSERT INTO approval_changes (id, org_id, kind, change, before, status, activity_id, principal_id, due_at, created_at, updated_at)
VALUES ($1::uuid, $2::text, $3::text, $4::jsonb,
        $5::jsonb, $6::text, $7::uuid,
        $8::text, $9::timestamptz, $10::timestamptz,
        $11::timestamptz)) SELECT 1;

-- addChangeStatus(writes, change, 'approved', now), alone
WITH w0 AS (UPDATE approval_changes SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- getChange(tx, changeId)
SELECT id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt" FROM approval_changes WHERE id = $1::uuid;

-- findApproverById(tx, orgId, approverId)
SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND id = $2::uuid;

-- findEntryById(tx, orgId, entryId)
SELECT id::text AS id, org_id AS "orgId", chain, address, address_key AS "addressKey", label, created_at AS "createdAt"
FROM address_book_entries WHERE org_id = $1 AND id = $2::uuid;

-- addInsertApprover(writes, approver), alone
WITH w0 AS (INSERT INTO approvers (id, org_id, label, public_key, created_at)
VALUES ($1::uuid, $2::text, $3::text, $4::text,
        $5::timestamptz)) SELECT 1;

-- addDeleteApprover(writes, orgId, approverId), alone
WITH w0 AS (DELETE FROM approvers WHERE org_id = $1::text AND id = $2::uuid) SELECT 1;

-- addSavePolicy(writes, {withdrawals 'above_threshold', threshold, quorum 2}), alone
WITH w0 AS (INSERT INTO approval_policies (org_id, withdrawals, threshold, quorum, updated_at)
VALUES ($1::text, $2::text, $3::bigint,
        $4::int, $5::timestamptz)
ON CONFLICT (org_id) DO UPDATE SET withdrawals = EXCLUDED.withdrawals, threshold = EXCLUDED.threshold, quorum = EXCLUDED.quorum, updated_at = EXCLUDED.updated_at) SELECT 1;

-- addInsertEntry(writes, entry), alone
WITH w0 AS (INSERT INTO address_book_entries (id, org_id, chain, address, address_key, label, created_at)
VALUES ($1::uuid, $2::text, $3::text, $4::text,
        $5::text, $6::text, $7::timestamptz)) SELECT 1;

-- addDeleteEntry(writes, orgId, entryId), alone
WITH w0 AS (DELETE FROM address_book_entries WHERE org_id = $1::text AND id = $2::uuid) SELECT 1;

-- addAudit(writes, {action 'approver.created', after, activityId, approvedBy}), alone
WITH w0 AS (INSERT INTO approval_audit (id, org_id, principal_id, action, before, after, activity_id, approved_by, created_at)
VALUES ($1::uuid, $2::text, $3::text, $4::text,
        $5::jsonb, $6::jsonb, $7::uuid, $8::jsonb, $9::timestamptz)) SELECT 1;

-- The statements approvals.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "wallet").

-- listApprovers(db, orgId, the first page, limit 2)
SELECT "wallet"."approvers"."id", "wallet"."approvers"."org_id", "wallet"."approvers"."label", "wallet"."approvers"."public_key", "wallet"."approvers"."created_at" FROM "wallet"."approvers" WHERE "wallet"."approvers"."org_id" = $1 ORDER BY "wallet"."approvers"."created_at" DESC, "wallet"."approvers"."id" DESC LIMIT $2 OFFSET $3;

-- listApprovers(db, orgId, a page after a cursor, limit 2)
SELECT "wallet"."approvers"."id", "wallet"."approvers"."org_id", "wallet"."approvers"."label", "wallet"."approvers"."public_key", "wallet"."approvers"."created_at" FROM "wallet"."approvers" WHERE ("wallet"."approvers"."org_id" = $1 AND ("wallet"."approvers"."created_at" < $2 OR ("wallet"."approvers"."created_at" = $3 AND "wallet"."approvers"."id" < $4))) ORDER BY "wallet"."approvers"."created_at" DESC, "wallet"."approvers"."id" DESC LIMIT $5 OFFSET $6;

-- findPolicy(db, orgId)
SELECT "wallet"."approval_policies"."org_id", "wallet"."approval_policies"."withdrawals", "wallet"."approval_policies"."threshold", "wallet"."approval_policies"."quorum", "wallet"."approval_policies"."updated_at" FROM "wallet"."approval_policies" WHERE ("wallet"."approval_policies"."org_id" = $1 AND 1=1) LIMIT $2 OFFSET $3;

-- listAudit(db, orgId, the first page, limit 2)
SELECT "wallet"."approval_audit"."id", "wallet"."approval_audit"."org_id", "wallet"."approval_audit"."principal_id", "wallet"."approval_audit"."action", "wallet"."approval_audit"."before", "wallet"."approval_audit"."after", "wallet"."approval_audit"."activity_id", "wallet"."approval_audit"."approved_by", "wallet"."approval_audit"."created_at" FROM "wallet"."approval_audit" WHERE "wallet"."approval_audit"."org_id" = $1 ORDER BY "wallet"."approval_audit"."created_at" DESC, "wallet"."approval_audit"."id" DESC LIMIT $2 OFFSET $3;

-- listAudit(db, orgId, a page after a cursor, limit 2)
SELECT "wallet"."approval_audit"."id", "wallet"."approval_audit"."org_id", "wallet"."approval_audit"."principal_id", "wallet"."approval_audit"."action", "wallet"."approval_audit"."before", "wallet"."approval_audit"."after", "wallet"."approval_audit"."activity_id", "wallet"."approval_audit"."approved_by", "wallet"."approval_audit"."created_at" FROM "wallet"."approval_audit" WHERE ("wallet"."approval_audit"."org_id" = $1 AND ("wallet"."approval_audit"."created_at" < $2 OR ("wallet"."approval_audit"."created_at" = $3 AND "wallet"."approval_audit"."id" < $4))) ORDER BY "wallet"."approval_audit"."created_at" DESC, "wallet"."approval_audit"."id" DESC LIMIT $5 OFFSET $6;

-- listPendingActivities(db, orgId, now)
SELECT "wallet"."approval_activities"."id", "wallet"."approval_activities"."org_id", "wallet"."approval_activities"."wallet_id", "wallet"."approval_activities"."kind", "wallet"."approval_activities"."withdrawal_id", "wallet"."approval_activities"."leg_id", "wallet"."approval_activities"."setup_id", "wallet"."approval_activities"."change_id", "wallet"."approval_activities"."status", "wallet"."approval_activities"."fingerprint", "wallet"."approval_activities"."quorum", "wallet"."approval_activities"."subject", "wallet"."approval_activities"."valid_before", "wallet"."approval_activities"."created_at", "wallet"."approval_activities"."completed_at" FROM "wallet"."approval_activities" WHERE ("wallet"."approval_activities"."org_id" = $1 AND "wallet"."approval_activities"."status" = $2 AND "wallet"."approval_activities"."valid_before" > $3) ORDER BY "wallet"."approval_activities"."created_at" ASC, "wallet"."approval_activities"."id" ASC OFFSET $4;

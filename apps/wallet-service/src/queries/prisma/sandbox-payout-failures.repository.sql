-- The statements sandbox-payout-failures.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "wallet").

-- armPayoutFailure(db, orgId, now), not armed yet
BEGIN;
SELECT "wallet"."sandbox_payout_failures"."org_id" FROM "wallet"."sandbox_payout_failures" WHERE ("wallet"."sandbox_payout_failures"."org_id" = $1 AND 1=1) OFFSET $2;
INSERT INTO "wallet"."sandbox_payout_failures" ("org_id","armed_at") VALUES ($1,$2) RETURNING "wallet"."sandbox_payout_failures"."org_id";
SELECT "wallet"."sandbox_payout_failures"."org_id", "wallet"."sandbox_payout_failures"."armed_at" FROM "wallet"."sandbox_payout_failures" WHERE "wallet"."sandbox_payout_failures"."org_id" = $1 LIMIT $2 OFFSET $3;
COMMIT;

-- armPayoutFailure(db, orgId, now), armed already
BEGIN;
SELECT "wallet"."sandbox_payout_failures"."org_id" FROM "wallet"."sandbox_payout_failures" WHERE ("wallet"."sandbox_payout_failures"."org_id" = $1 AND 1=1) OFFSET $2;
SELECT "wallet"."sandbox_payout_failures"."org_id", "wallet"."sandbox_payout_failures"."armed_at" FROM "wallet"."sandbox_payout_failures" WHERE (("wallet"."sandbox_payout_failures"."org_id" = $1 AND 1=1) AND "wallet"."sandbox_payout_failures"."org_id" IN ($2)) LIMIT $3 OFFSET $4;
SELECT "wallet"."sandbox_payout_failures"."org_id", "wallet"."sandbox_payout_failures"."armed_at" FROM "wallet"."sandbox_payout_failures" WHERE "wallet"."sandbox_payout_failures"."org_id" = $1 LIMIT $2 OFFSET $3;
COMMIT;

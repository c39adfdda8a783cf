-- The statements organizations.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "microvault").

-- OrganizationsRepository.isEnabled(orgId)
SELECT "microvault"."organizations"."org_id", "microvault"."organizations"."enabled_at" FROM "microvault"."organizations" WHERE ("microvault"."organizations"."org_id" = $1 AND 1=1) LIMIT $2 OFFSET $3;

-- OrganizationsRepository.enable(orgId), not enabled yet
BEGIN;
SELECT "microvault"."organizations"."org_id" FROM "microvault"."organizations" WHERE ("microvault"."organizations"."org_id" = $1 AND 1=1) OFFSET $2;
INSERT INTO "microvault"."organizations" ("org_id","enabled_at") VALUES ($1,$2) RETURNING "microvault"."organizations"."org_id";
SELECT "microvault"."organizations"."org_id", "microvault"."organizations"."enabled_at" FROM "microvault"."organizations" WHERE "microvault"."organizations"."org_id" = $1 LIMIT $2 OFFSET $3;
COMMIT;

-- OrganizationsRepository.enable(orgId), enabled already
BEGIN;
SELECT "microvault"."organizations"."org_id" FROM "microvault"."organizations" WHERE ("microvault"."organizations"."org_id" = $1 AND 1=1) OFFSET $2;
SELECT "microvault"."organizations"."org_id", "microvault"."organizations"."enabled_at" FROM "microvault"."organizations" WHERE (("microvault"."organizations"."org_id" = $1 AND 1=1) AND "microvault"."organizations"."org_id" IN ($2)) LIMIT $3 OFFSET $4;
SELECT "microvault"."organizations"."org_id", "microvault"."organizations"."enabled_at" FROM "microvault"."organizations" WHERE "microvault"."organizations"."org_id" = $1 LIMIT $2 OFFSET $3;
COMMIT;

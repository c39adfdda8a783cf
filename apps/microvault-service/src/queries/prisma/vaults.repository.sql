-- The statements vaults.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "microvault").

-- VaultsRepository.create(vault)
INSERT INTO "microvault"."vaults" ("id","org_id","chain_id","address","deploy_tx_hash","created_at") VALUES ($1,$2,$3,$4,$5,$6) RETURNING "microvault"."vaults"."id", "microvault"."vaults"."org_id", "microvault"."vaults"."chain_id", "microvault"."vaults"."address", "microvault"."vaults"."deploy_tx_hash", "microvault"."vaults"."created_at";

-- VaultsRepository.findInOrg(orgId, vaultId)
SELECT "microvault"."vaults"."id", "microvault"."vaults"."org_id", "microvault"."vaults"."chain_id", "microvault"."vaults"."address", "microvault"."vaults"."deploy_tx_hash", "microvault"."vaults"."created_at" FROM "microvault"."vaults" WHERE ("microvault"."vaults"."id" = $1 AND "microvault"."vaults"."org_id" = $2) LIMIT $3 OFFSET $4;

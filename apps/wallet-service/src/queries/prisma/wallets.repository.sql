-- The statements wallets.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "wallet").

-- requireWallet(db, orgId, walletId)
SELECT COUNT(*) AS "_count$_all" FROM (SELECT "wallet"."wallets"."id" FROM "wallet"."wallets" WHERE ("wallet"."wallets"."id" = $1 AND "wallet"."wallets"."org_id" = $2) OFFSET $3) AS "sub";

-- updateLabel(db, orgId, walletId, label)
UPDATE "wallet"."wallets" SET "label" = $1, "updated_at" = $2 WHERE ("wallet"."wallets"."id" = $3 AND "wallet"."wallets"."org_id" = $4);

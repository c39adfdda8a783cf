-- The statements deposits.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "wallet").

-- listDeposits(db, walletId, no filters, the first page newest first, limit 2)
SELECT "wallet"."deposits"."id", "wallet"."deposits"."wallet_id", "wallet"."deposits"."org_id", "wallet"."deposits"."amount", "wallet"."deposits"."token", "wallet"."deposits"."chain", "wallet"."deposits"."from_address", "wallet"."deposits"."tx_hash", "wallet"."deposits"."status", "wallet"."deposits"."settle_at", "wallet"."deposits"."created_at", "wallet"."deposits"."completed_at" FROM "wallet"."deposits" WHERE "wallet"."deposits"."wallet_id" = $1 ORDER BY "wallet"."deposits"."created_at" DESC, "wallet"."deposits"."id" DESC LIMIT $2 OFFSET $3;

-- listDeposits(db, walletId, {status, createdAt}, a page after a cursor oldest first, limit 2)
SELECT "wallet"."deposits"."id", "wallet"."deposits"."wallet_id", "wallet"."deposits"."org_id", "wallet"."deposits"."amount", "wallet"."deposits"."token", "wallet"."deposits"."chain", "wallet"."deposits"."from_address", "wallet"."deposits"."tx_hash", "wallet"."deposits"."status", "wallet"."deposits"."settle_at", "wallet"."deposits"."created_at", "wallet"."deposits"."completed_at" FROM "wallet"."deposits" WHERE ("wallet"."deposits"."wallet_id" = $1 AND "wallet"."deposits"."status" IN ($2,$3) AND "wallet"."deposits"."created_at" >= $4 AND ("wallet"."deposits"."created_at" > $5 OR ("wallet"."deposits"."created_at" = $6 AND "wallet"."deposits"."id" > $7))) ORDER BY "wallet"."deposits"."created_at" ASC, "wallet"."deposits"."id" ASC LIMIT $8 OFFSET $9;

-- findDeposit(db, walletId, depositId)
SELECT "wallet"."deposits"."id", "wallet"."deposits"."wallet_id", "wallet"."deposits"."org_id", "wallet"."deposits"."amount", "wallet"."deposits"."token", "wallet"."deposits"."chain", "wallet"."deposits"."from_address", "wallet"."deposits"."tx_hash", "wallet"."deposits"."status", "wallet"."deposits"."settle_at", "wallet"."deposits"."created_at", "wallet"."deposits"."completed_at" FROM "wallet"."deposits" WHERE ("wallet"."deposits"."id" = $1 AND "wallet"."deposits"."wallet_id" = $2) LIMIT $3 OFFSET $4;

-- findDepositByTxHash(db, walletId, txHash, chain)
SELECT "wallet"."deposits"."id", "wallet"."deposits"."wallet_id", "wallet"."deposits"."org_id", "wallet"."deposits"."amount", "wallet"."deposits"."token", "wallet"."deposits"."chain", "wallet"."deposits"."from_address", "wallet"."deposits"."tx_hash", "wallet"."deposits"."status", "wallet"."deposits"."settle_at", "wallet"."deposits"."created_at", "wallet"."deposits"."completed_at" FROM "wallet"."deposits" WHERE ("wallet"."deposits"."wallet_id" = $1 AND "wallet"."deposits"."tx_hash" = $2 AND "wallet"."deposits"."chain" = $3) LIMIT $4 OFFSET $5;

-- findDepositByTxHash(db, walletId, txHash, no chain)
SELECT "wallet"."deposits"."id", "wallet"."deposits"."wallet_id", "wallet"."deposits"."org_id", "wallet"."deposits"."amount", "wallet"."deposits"."token", "wallet"."deposits"."chain", "wallet"."deposits"."from_address", "wallet"."deposits"."tx_hash", "wallet"."deposits"."status", "wallet"."deposits"."settle_at", "wallet"."deposits"."created_at", "wallet"."deposits"."completed_at" FROM "wallet"."deposits" WHERE ("wallet"."deposits"."wallet_id" = $1 AND "wallet"."deposits"."tx_hash" = $2) LIMIT $3 OFFSET $4;

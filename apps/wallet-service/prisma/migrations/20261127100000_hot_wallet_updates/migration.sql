-- No update of wallets, rebalances or withdrawals was HOT (issue 17: 0 of 3,316, 8,586 and 12,000
-- in one round of the wallet bench). Every allocation and withdrawal changes its wallet's status
-- twice, and wallets_status_idx covered the status: each change wrote an entry into all three
-- indexes of wallets, none of the old ones went until a vacuum, and the first page of
-- GET /v2/wallets read 121 index entries for 20 wallets after one round of writes.
--
-- Wallets: the worker finds the wallets to provision in wallet_provisions (a row while the wallet
-- is creating: written with the wallet, deleted with the change that provisions it). Nothing
-- indexes wallets.status any more, and pages keep room for new versions of their rows (fillfactor
-- 70, for pages written from now on), so a status change is a HOT update: no index entry written.
-- Wallets a replica of the previous release creates during the rollout have no row here: that
-- replica's own worker provisions them, and the worker of this release adds any creating wallet
-- without a row when it starts.
--
-- Rebalances and withdrawals change status and next_run_at on every step, which their worker
-- indexes must cover. Those indexes now hold only the rows still running (partial), so a finished
-- row is written into none of them. The worker's look for due steps read its index by a bitmap
-- scan, which visits every entry, dead ones included, and never marks one dead: 1.6, 6.3, then
-- 9.3 ms a look over the wallet bench's windows. Its index is now in the order it reads
-- (created_at), so the look is an ordered index scan that marks the dead entries it meets and
-- skips them afterwards.
-- (No semicolons in comments: Prisma's engine splits a migration's statements on them.)

-- CreateTable
CREATE TABLE "wallet_provisions" (
    "wallet_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_provisions_pkey" PRIMARY KEY ("wallet_id")
);

-- AddForeignKey
ALTER TABLE "wallet_provisions" ADD CONSTRAINT "wallet_provisions_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "wallet_provisions" ("wallet_id", "org_id", "created_at")
  SELECT "id", "org_id", "created_at" FROM "wallets" WHERE "status" = 'creating'
  ON CONFLICT ("wallet_id") DO NOTHING;

-- DropIndex
DROP INDEX "wallets_status_idx";

ALTER TABLE "wallets" SET (fillfactor = 70);

-- DropIndex
DROP INDEX "rebalances_status_next_run_at_idx";

-- DropIndex
DROP INDEX "rebalances_wallet_id_status_idx";

-- DropIndex
DROP INDEX "withdrawals_status_next_run_at_idx";

-- CreateIndex
CREATE INDEX "rebalances_due_idx" ON "rebalances"("created_at") WHERE status = ANY (ARRAY['created'::text, 'processing'::text]);

-- CreateIndex
CREATE INDEX "rebalances_running_idx" ON "rebalances"("wallet_id") WHERE status = 'processing';

-- CreateIndex
CREATE INDEX "withdrawals_due_idx" ON "withdrawals"("created_at") WHERE status = 'processing';

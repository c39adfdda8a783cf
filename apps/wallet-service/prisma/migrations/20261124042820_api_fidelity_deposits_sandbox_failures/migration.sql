-- AlterTable
ALTER TABLE "deposits" ALTER COLUMN "from_address" DROP NOT NULL,
ALTER COLUMN "tx_hash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "sandbox_payout_failures" (
    "org_id" TEXT NOT NULL,
    "armed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_payout_failures_pkey" PRIMARY KEY ("org_id")
);

-- CreateIndex
CREATE INDEX "deposits_wallet_id_tx_hash_idx" ON "deposits"("wallet_id", "tx_hash");

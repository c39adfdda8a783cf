-- The accounting ledger (issue 40): append-only events written with each money movement and
-- accrual settlement, and the open FIFO lots of each yield-source position beside its amount.

-- AlterTable
ALTER TABLE "positions" ADD COLUMN     "lots" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "totals" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "accounting_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "position_id" TEXT NOT NULL,
    "position_kind" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "cost" BIGINT NOT NULL DEFAULT 0,
    "realized" BIGINT NOT NULL DEFAULT 0,
    "rate_bps" INTEGER,
    "accrued_from" TIMESTAMPTZ(3),
    "position_amount" BIGINT NOT NULL,
    "position_accrued_at" TIMESTAMPTZ(3) NOT NULL,
    "open_cost" BIGINT NOT NULL,
    "cum_deposits" BIGINT NOT NULL DEFAULT 0,
    "cum_payouts" BIGINT NOT NULL DEFAULT 0,
    "cum_fees" BIGINT NOT NULL DEFAULT 0,
    "cum_bought" BIGINT NOT NULL DEFAULT 0,
    "cum_redeemed" BIGINT NOT NULL DEFAULT 0,
    "cum_realized" BIGINT NOT NULL DEFAULT 0,
    "reference_type" TEXT,
    "reference_id" TEXT,
    "chain" TEXT,
    "token" TEXT,
    "tx_hash" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounting_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "accounting_events_wallet_id_position_id_occurred_at_seq_idx" ON "accounting_events"("wallet_id", "position_id", "occurred_at", "seq");

-- CreateIndex
CREATE INDEX "accounting_events_wallet_id_seq_idx" ON "accounting_events"("wallet_id", "seq");

-- CreateIndex
CREATE INDEX "accounting_events_wallet_id_position_id_seq_idx" ON "accounting_events"("wallet_id", "position_id", "seq");

-- CreateIndex
CREATE INDEX "accounting_events_org_id_seq_idx" ON "accounting_events"("org_id", "seq");

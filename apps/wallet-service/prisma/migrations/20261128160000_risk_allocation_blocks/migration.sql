-- wallet-service's projection of the risk engine's allocation blocks (issue 39), fed by its
-- durable consumer of the risk events: a block holds while its action is executed and not lifted
-- (its alert resolved, or the action rejected). Resolved alert ids are kept so an `executed`
-- event arriving after its alert's `resolved` blocks nothing.

-- CreateTable
CREATE TABLE "risk_allocation_blocks" (
    "action_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "yield_source_id" TEXT NOT NULL,
    "risk_alert_id" UUID NOT NULL,
    "executed_at" TIMESTAMPTZ(3),
    "lifted_at" TIMESTAMPTZ(3),
    "lifted_by" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_allocation_blocks_pkey" PRIMARY KEY ("action_id")
);

-- CreateTable
CREATE TABLE "risk_resolved_alerts" (
    "alert_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "resolved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "risk_resolved_alerts_pkey" PRIMARY KEY ("alert_id")
);

-- CreateIndex
CREATE INDEX "risk_allocation_blocks_risk_alert_id_idx" ON "risk_allocation_blocks"("risk_alert_id");

-- The blocks in force, by wallet: what allocate, a strategy rebalance and a deposit's allocation read.
CREATE INDEX "risk_allocation_blocks_in_force_idx" ON "risk_allocation_blocks"("wallet_id", "yield_source_id") WHERE (executed_at IS NOT NULL AND lifted_at IS NULL);

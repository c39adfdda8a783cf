-- The latest metric observation per yield source and scope (issue 39: the live figures of the
-- catalogue), fed by the `wallet-market-data` consumer of the `risk.metrics.observed` events of
-- risk-service: org_id `*` is a provider reading, another org_id a sandbox injection of that
-- organization.

-- CreateTable
CREATE TABLE "market_figures" (
    "yield_source_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "observation_id" UUID NOT NULL,
    "apy_bps" DOUBLE PRECISION,
    "tvl_usd" DOUBLE PRECISION,
    "available_withdrawal_liquidity_usd" DOUBLE PRECISION,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "market_figures_pkey" PRIMARY KEY ("yield_source_id","org_id")
);

-- CreateIndex
CREATE INDEX "market_figures_org_id_idx" ON "market_figures"("org_id");

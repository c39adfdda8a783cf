-- CreateTable
CREATE TABLE "wallets" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "label" TEXT,
    "status" TEXT NOT NULL,
    "failure_reason" TEXT,
    "auto_rebalance" BOOLEAN NOT NULL,
    "strategy" JSONB NOT NULL,
    "deposit_addresses" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "positions" (
    "wallet_id" UUID NOT NULL,
    "position_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "reserved" BIGINT NOT NULL DEFAULT 0,
    "earned" BIGINT NOT NULL DEFAULT 0,
    "accrued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "positions_pkey" PRIMARY KEY ("wallet_id","position_id")
);

-- CreateTable
CREATE TABLE "deposits" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "token" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "settle_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "deposits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rebalances" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "request_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "allocations" JSONB NOT NULL,
    "reservations" JSONB NOT NULL,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "rebalances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "org_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "request_id" UUID NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "resource_id" UUID NOT NULL,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("org_id","operation","request_id")
);

-- CreateIndex
CREATE INDEX "wallets_org_id_created_at_id_idx" ON "wallets"("org_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "wallets_status_idx" ON "wallets"("status");

-- CreateIndex
CREATE INDEX "deposits_wallet_id_created_at_id_idx" ON "deposits"("wallet_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "deposits_status_settle_at_idx" ON "deposits"("status", "settle_at");

-- CreateIndex
CREATE INDEX "rebalances_status_next_run_at_idx" ON "rebalances"("status", "next_run_at");

-- CreateIndex
CREATE INDEX "rebalances_wallet_id_status_idx" ON "rebalances"("wallet_id", "status");

-- AddForeignKey
ALTER TABLE "positions" ADD CONSTRAINT "positions_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rebalances" ADD CONSTRAINT "rebalances_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

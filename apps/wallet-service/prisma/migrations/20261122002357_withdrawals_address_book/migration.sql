-- CreateTable
CREATE TABLE "withdrawals" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "request_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "amount_requested" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "amount_paid" BIGINT,
    "destination_chain" TEXT NOT NULL,
    "destination_address" TEXT NOT NULL,
    "destination_token" TEXT NOT NULL,
    "payout_legs" JSONB NOT NULL,
    "failure_reason" TEXT,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "address_book_entries" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "address_key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "address_book_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deposit_address_approvals" (
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_address_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "withdrawals_wallet_id_created_at_id_idx" ON "withdrawals"("wallet_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "withdrawals_status_next_run_at_idx" ON "withdrawals"("status", "next_run_at");

-- CreateIndex
CREATE INDEX "address_book_entries_org_id_created_at_id_idx" ON "address_book_entries"("org_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "address_book_entries_org_id_chain_address_key_key" ON "address_book_entries"("org_id", "chain", "address_key");

-- CreateIndex
CREATE INDEX "deposit_address_approvals_status_due_at_idx" ON "deposit_address_approvals"("status", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_address_approvals_wallet_id_chain_key" ON "deposit_address_approvals"("wallet_id", "chain");

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "chain_cursors" (
    "id" TEXT NOT NULL,
    "last_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_cursors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "allowlist_changes" (
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "chain" TEXT NOT NULL,
    "contract_address" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "allowed" BOOLEAN NOT NULL,
    "block_number" BIGINT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allowlist_changes_pkey" PRIMARY KEY ("tx_hash","log_index")
);

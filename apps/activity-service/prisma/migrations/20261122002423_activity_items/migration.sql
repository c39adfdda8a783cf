-- CreateTable
CREATE TABLE "activity_items" (
    "org_id" TEXT NOT NULL,
    "id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_rank" SMALLINT NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "resource" JSONB NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,
    "event_id" UUID NOT NULL,

    CONSTRAINT "activity_items_pkey" PRIMARY KEY ("org_id","id")
);

-- CreateIndex
CREATE INDEX "activity_items_org_id_timestamp_id_idx" ON "activity_items"("org_id", "timestamp", "id");

-- CreateIndex
CREATE INDEX "activity_items_org_id_wallet_id_timestamp_id_idx" ON "activity_items"("org_id", "wallet_id", "timestamp", "id");

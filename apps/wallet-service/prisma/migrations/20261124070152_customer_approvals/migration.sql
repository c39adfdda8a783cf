-- CreateTable
CREATE TABLE "approvers" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_policies" (
    "org_id" TEXT NOT NULL,
    "withdrawals" TEXT NOT NULL,
    "threshold" BIGINT,
    "quorum" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "approval_policies_pkey" PRIMARY KEY ("org_id")
);

-- CreateTable
CREATE TABLE "approval_audit" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_activities" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "withdrawal_id" UUID,
    "leg_id" UUID,
    "setup_id" UUID,
    "status" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "quorum" INTEGER NOT NULL,
    "subject" JSONB NOT NULL,
    "valid_before" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "approval_activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_votes" (
    "activity_id" UUID NOT NULL,
    "public_key" TEXT NOT NULL,
    "approver_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_votes_pkey" PRIMARY KEY ("activity_id","public_key")
);

-- CreateIndex
CREATE INDEX "approvers_org_id_created_at_id_idx" ON "approvers"("org_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "approvers_org_id_public_key_key" ON "approvers"("org_id", "public_key");

-- CreateIndex
CREATE INDEX "approval_audit_org_id_created_at_id_idx" ON "approval_audit"("org_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "approval_activities_org_id_status_created_at_idx" ON "approval_activities"("org_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "approval_activities_status_valid_before_idx" ON "approval_activities"("status", "valid_before");

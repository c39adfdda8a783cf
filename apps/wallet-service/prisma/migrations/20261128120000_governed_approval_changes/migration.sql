-- Changes to an organization's approvers, policy and address book wait for its approvers' quorum
-- once it has approvers: each is a row of approval_changes and an organization-level activity
-- (no wallet, change_id set). The audit names the activity and the approving keys of such a change.

-- AlterTable
ALTER TABLE "approval_activities" ALTER COLUMN "wallet_id" DROP NOT NULL,
ADD COLUMN     "change_id" UUID;

-- AlterTable
ALTER TABLE "approval_audit" ADD COLUMN     "activity_id" UUID,
ADD COLUMN     "approved_by" JSONB;

-- CreateTable
CREATE TABLE "approval_changes" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "change" JSONB NOT NULL,
    "before" JSONB,
    "status" TEXT NOT NULL,
    "activity_id" UUID NOT NULL,
    "principal_id" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "approval_changes_status_due_at_idx" ON "approval_changes"("status", "due_at");

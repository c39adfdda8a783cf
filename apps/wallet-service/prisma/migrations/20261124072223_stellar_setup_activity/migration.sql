-- AlterTable
ALTER TABLE "deposit_address_approvals" ADD COLUMN     "activity_id" UUID;

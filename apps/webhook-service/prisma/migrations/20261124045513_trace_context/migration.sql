-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "trace_context" TEXT;

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "trace_context" TEXT;

-- A risk exit's source: its remainder (yield accrued while the exit ran) is swept to cash when the
-- rebalance completes.
ALTER TABLE "rebalances" ADD COLUMN "exit_source" TEXT;

-- The relay's lease on a claimed batch: it publishes with no transaction open (issue 17).
ALTER TABLE "outbox_events" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);

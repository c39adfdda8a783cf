-- The relay's claim takes the oldest unpublished rows in (occurred_at, id) order. Over the old
-- (published_at, occurred_at) index it read every unpublished row and the dead index entries of
-- every published one, then sorted: 300 ms a claim after a wallet bench's 140,000 events. The
-- partial index holds the unpublished rows in the claim's order (issue 17).
-- DropIndex
DROP INDEX "outbox_events_published_at_occurred_at_idx";

-- CreateIndex
CREATE INDEX "outbox_events_occurred_at_id_idx" ON "outbox_events"("occurred_at", "id") WHERE (published_at IS NULL);

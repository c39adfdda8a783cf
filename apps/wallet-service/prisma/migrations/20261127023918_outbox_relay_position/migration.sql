-- The outbox relay no longer claims and marks each row (two updates per event, whose dead row
-- versions every later claim read through again: 5 ms a claim of 59 rows after 8,000 events of a
-- wallet bench, 12,000 index entries visited). It reads the rows of transactions that have all
-- ended in (txid, seq) order and records how far it got in the one row of outbox_relay, so the
-- outbox is only inserted into (issue 17).
--
-- No table rewrite: existing rows get txid 3 (below every real transaction id) and seq 0, the
-- unpublished ones numbered after them in the order they occurred, and the relay starts right
-- after the published ones. Relays of the previous release fail (logged, retried) on the dropped
-- columns until they are replaced, and writers of either release are unaffected.
-- (No semicolons in comments: Prisma's engine splits a migration's statements on them.)

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN "seq" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "txid" xid8 NOT NULL DEFAULT '3'::xid8;

UPDATE "outbox_events" o SET "seq" = n.seq
  FROM (SELECT id, row_number() OVER (ORDER BY occurred_at, id) AS seq FROM "outbox_events" WHERE published_at IS NULL) n
 WHERE o.id = n.id;

CREATE SEQUENCE "outbox_events_seq_seq" OWNED BY "outbox_events"."seq";
SELECT setval('"outbox_events_seq_seq"', (SELECT coalesce(max("seq"), 0) + 1 FROM "outbox_events"), false);
ALTER TABLE "outbox_events" ALTER COLUMN "seq" SET DEFAULT nextval('"outbox_events_seq_seq"'),
ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id();

-- CreateTable
CREATE TABLE "outbox_relay" (
    "name" TEXT NOT NULL,
    "last_txid" xid8 NOT NULL DEFAULT '0'::xid8,
    "last_seq" BIGINT NOT NULL DEFAULT 0,
    "holder" UUID,
    "held_until" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_relay_pkey" PRIMARY KEY ("name")
);

INSERT INTO "outbox_relay" ("name", "last_txid", "last_seq") VALUES ('relay', '3', 0);

-- DropIndex
DROP INDEX "outbox_events_occurred_at_id_idx";

-- AlterTable
ALTER TABLE "outbox_events" DROP COLUMN "claimed_until",
DROP COLUMN "published_at";

-- CreateIndex
CREATE INDEX "outbox_events_txid_seq_idx" ON "outbox_events"("txid", "seq");

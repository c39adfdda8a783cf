-- The statements allowlist-changes.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "gvault").

-- AllowlistChangesRepository.lastBlock(cursorId), before the first start
SELECT "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at" FROM "gvault"."chain_cursors" WHERE ("gvault"."chain_cursors"."id" = $1 AND 1=1) LIMIT $2 OFFSET $3;

-- AllowlistChangesRepository.startAt(cursorId, lastBlock)
INSERT INTO "gvault"."chain_cursors" ("id","last_block","updated_at") VALUES ($1,$2,$3) RETURNING "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at";

-- AllowlistChangesRepository.lastBlock(cursorId), once started
SELECT "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at" FROM "gvault"."chain_cursors" WHERE ("gvault"."chain_cursors"."id" = $1 AND 1=1) LIMIT $2 OFFSET $3;

-- AllowlistChangesRepository.applyRange(cursorId, [a change not stored yet, with its event], lastBlock)
BEGIN;
INSERT INTO "gvault"."allowlist_changes" ("tx_hash","log_index","chain","contract_address","address","allowed","block_number","recorded_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT DO NOTHING;
INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp());
INSERT INTO "gvault"."chain_cursors" ("id","last_block","updated_at") VALUES ($1,$2,$3) ON CONFLICT ("id") DO UPDATE SET "last_block" = $4, "updated_at" = $5 WHERE ("gvault"."chain_cursors"."id" = $6 AND 1=1) RETURNING "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at";
COMMIT;

-- AllowlistChangesRepository.applyRange(cursorId, [a change stored already], lastBlock)
BEGIN;
INSERT INTO "gvault"."allowlist_changes" ("tx_hash","log_index","chain","contract_address","address","allowed","block_number","recorded_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT DO NOTHING;
INSERT INTO "gvault"."chain_cursors" ("id","last_block","updated_at") VALUES ($1,$2,$3) ON CONFLICT ("id") DO UPDATE SET "last_block" = $4, "updated_at" = $5 WHERE ("gvault"."chain_cursors"."id" = $6 AND 1=1) RETURNING "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at";
COMMIT;

-- AllowlistChangesRepository.applyRange(cursorId, [] (a range without changes), lastBlock)
BEGIN;
INSERT INTO "gvault"."chain_cursors" ("id","last_block","updated_at") VALUES ($1,$2,$3) ON CONFLICT ("id") DO UPDATE SET "last_block" = $4, "updated_at" = $5 WHERE ("gvault"."chain_cursors"."id" = $6 AND 1=1) RETURNING "gvault"."chain_cursors"."id", "gvault"."chain_cursors"."last_block", "gvault"."chain_cursors"."updated_at";
COMMIT;

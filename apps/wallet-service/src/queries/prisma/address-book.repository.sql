-- The statements address-book.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "wallet").

-- listEntries(db, orgId, the first page, limit 2)
SELECT "wallet"."address_book_entries"."id", "wallet"."address_book_entries"."org_id", "wallet"."address_book_entries"."chain", "wallet"."address_book_entries"."address", "wallet"."address_book_entries"."address_key", "wallet"."address_book_entries"."label", "wallet"."address_book_entries"."created_at" FROM "wallet"."address_book_entries" WHERE "wallet"."address_book_entries"."org_id" = $1 ORDER BY "wallet"."address_book_entries"."created_at" DESC, "wallet"."address_book_entries"."id" DESC LIMIT $2 OFFSET $3;

-- listEntries(db, orgId, a page after a cursor, limit 2)
SELECT "wallet"."address_book_entries"."id", "wallet"."address_book_entries"."org_id", "wallet"."address_book_entries"."chain", "wallet"."address_book_entries"."address", "wallet"."address_book_entries"."address_key", "wallet"."address_book_entries"."label", "wallet"."address_book_entries"."created_at" FROM "wallet"."address_book_entries" WHERE ("wallet"."address_book_entries"."org_id" = $1 AND ("wallet"."address_book_entries"."created_at" < $2 OR ("wallet"."address_book_entries"."created_at" = $3 AND "wallet"."address_book_entries"."id" < $4))) ORDER BY "wallet"."address_book_entries"."created_at" DESC, "wallet"."address_book_entries"."id" DESC LIMIT $5 OFFSET $6;

-- The statements registrations.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "webhook").

-- RegistrationsRepository.transaction(tx => countActive(tx, orgId, family))
BEGIN;
SELECT COUNT(*) AS "_count$_all" FROM (SELECT "webhook"."registrations"."id" FROM "webhook"."registrations" WHERE ("webhook"."registrations"."org_id" = $1 AND "webhook"."registrations"."family" = $2 AND "webhook"."registrations"."deleted_at" IS NULL) OFFSET $3) AS "sub";
COMMIT;

-- RegistrationsRepository.transaction(tx => hasActiveUrl(tx, orgId, family, url))
BEGIN;
SELECT "webhook"."registrations"."id" FROM "webhook"."registrations" WHERE ("webhook"."registrations"."org_id" = $1 AND "webhook"."registrations"."family" = $2 AND "webhook"."registrations"."url" = $3 AND "webhook"."registrations"."deleted_at" IS NULL) LIMIT $4 OFFSET $5;
COMMIT;

-- RegistrationsRepository.transaction(tx => create(tx, row))
BEGIN;
INSERT INTO "webhook"."registrations" ("id","org_id","family","url","events","description","secret_enc","created_at","updated_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
COMMIT;

-- RegistrationsRepository.findActive(orgId, family, id)
SELECT "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at" FROM "webhook"."registrations" WHERE ("webhook"."registrations"."id" = $1 AND "webhook"."registrations"."org_id" = $2 AND "webhook"."registrations"."family" = $3 AND "webhook"."registrations"."deleted_at" IS NULL) LIMIT $4 OFFSET $5;

-- RegistrationsRepository.list(orgId, family, the first page, limit 2)
SELECT "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at" FROM "webhook"."registrations" WHERE ("webhook"."registrations"."org_id" = $1 AND "webhook"."registrations"."family" = $2 AND "webhook"."registrations"."deleted_at" IS NULL) ORDER BY "webhook"."registrations"."created_at" DESC, "webhook"."registrations"."id" DESC LIMIT $3 OFFSET $4;

-- RegistrationsRepository.list(orgId, family, a page after a cursor, limit 2)
SELECT "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at" FROM "webhook"."registrations" WHERE ("webhook"."registrations"."org_id" = $1 AND "webhook"."registrations"."family" = $2 AND "webhook"."registrations"."deleted_at" IS NULL AND ("webhook"."registrations"."created_at" < $3 OR ("webhook"."registrations"."created_at" = $4 AND "webhook"."registrations"."id" < $5))) ORDER BY "webhook"."registrations"."created_at" DESC, "webhook"."registrations"."id" DESC LIMIT $6 OFFSET $7;

-- RegistrationsRepository.transaction(tx => update(tx, id, {url, events, description}))
BEGIN;
UPDATE "webhook"."registrations" SET "url" = $1, "events" = $2, "description" = $3, "updated_at" = $4 WHERE ("webhook"."registrations"."id" = $5 AND 1=1) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
COMMIT;

-- RegistrationsRepository.transaction(tx => update(tx, id, {events}))
BEGIN;
UPDATE "webhook"."registrations" SET "events" = $1, "updated_at" = $2 WHERE ("webhook"."registrations"."id" = $3 AND 1=1) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
COMMIT;

-- RegistrationsRepository.transaction(tx => update(tx, id, {events, secrets re-sealed}))
BEGIN;
UPDATE "webhook"."registrations" SET "events" = $1, "secret_enc" = $2, "previous_secret_enc" = $3, "updated_at" = $4 WHERE ("webhook"."registrations"."id" = $5 AND 1=1) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
COMMIT;

-- RegistrationsRepository.transaction(tx => rotateSecret(tx, id, secrets))
BEGIN;
UPDATE "webhook"."registrations" SET "secret_enc" = $1, "previous_secret_enc" = $2, "previous_secret_expires_at" = $3, "updated_at" = $4 WHERE ("webhook"."registrations"."id" = $5 AND 1=1) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
COMMIT;

-- RegistrationsRepository.transaction(tx => deactivate(tx, registrationId, reason))
BEGIN;
UPDATE "webhook"."registrations" SET "deleted_at" = $1, "updated_at" = $2 WHERE ("webhook"."registrations"."id" = $3 AND 1=1) RETURNING "webhook"."registrations"."id", "webhook"."registrations"."org_id", "webhook"."registrations"."family", "webhook"."registrations"."url", "webhook"."registrations"."events", "webhook"."registrations"."description", "webhook"."registrations"."secret_enc", "webhook"."registrations"."previous_secret_enc", "webhook"."registrations"."previous_secret_expires_at", "webhook"."registrations"."created_at", "webhook"."registrations"."updated_at", "webhook"."registrations"."deleted_at";
UPDATE "webhook"."deliveries" SET "status" = $1, "next_attempt_at" = $2, "last_error" = $3, "updated_at" = $4 WHERE ("webhook"."deliveries"."registration_id" = $5 AND "webhook"."deliveries"."status" IN ($6,$7));
COMMIT;

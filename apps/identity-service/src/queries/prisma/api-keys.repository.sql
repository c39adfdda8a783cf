-- The statements api-keys.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/prisma.int.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).
-- Recorded from Prisma's query events on a migrated schema (model API and raw statements, in order; the schema as "identity").

-- ApiKeysRepository.create(row)
INSERT INTO "identity"."api_keys" ("id","org_id","name","role","key_hash","last4","created_by","created_at","expires_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id";

-- ApiKeysRepository.findActiveInOrg(orgId, id)
SELECT "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id" FROM "identity"."api_keys" WHERE ("identity"."api_keys"."id" = $1 AND "identity"."api_keys"."org_id" = $2 AND "identity"."api_keys"."revoked_at" IS NULL) LIMIT $3 OFFSET $4;

-- ApiKeysRepository.page(orgId, the first page, limit 2)
SELECT "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id" FROM "identity"."api_keys" WHERE ("identity"."api_keys"."org_id" = $1 AND "identity"."api_keys"."revoked_at" IS NULL) ORDER BY "identity"."api_keys"."created_at" DESC, "identity"."api_keys"."id" DESC LIMIT $2 OFFSET $3;

-- ApiKeysRepository.page(orgId, a page after a cursor, limit 2)
SELECT "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id" FROM "identity"."api_keys" WHERE ("identity"."api_keys"."org_id" = $1 AND "identity"."api_keys"."revoked_at" IS NULL AND ("identity"."api_keys"."created_at" < $2 OR ("identity"."api_keys"."created_at" = $3 AND "identity"."api_keys"."id" < $4))) ORDER BY "identity"."api_keys"."created_at" DESC, "identity"."api_keys"."id" DESC LIMIT $5 OFFSET $6;

-- ApiKeysRepository.findByHash(keyHash)
SELECT "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id" FROM "identity"."api_keys" WHERE ("identity"."api_keys"."key_hash" = $1 AND 1=1) LIMIT $2 OFFSET $3;

-- ApiKeysRepository.recordUse(id, at)
UPDATE "identity"."api_keys" SET "last_used_at" = $1 WHERE ("identity"."api_keys"."id" = $2 AND "identity"."api_keys"."revoked_at" IS NULL AND ("identity"."api_keys"."last_used_at" IS NULL OR "identity"."api_keys"."last_used_at" < $3));

-- ApiKeysRepository.roll(oldId, end {expiresAt}, successor, now), the old key still working
BEGIN;
UPDATE "identity"."api_keys" SET "expires_at" = $1, "successor_id" = $2 WHERE ("identity"."api_keys"."id" = $3 AND "identity"."api_keys"."revoked_at" IS NULL AND "identity"."api_keys"."successor_id" IS NULL AND ("identity"."api_keys"."expires_at" IS NULL OR "identity"."api_keys"."expires_at" > $4));
INSERT INTO "identity"."api_keys" ("id","org_id","name","role","key_hash","last4","created_by","created_at","expires_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING "identity"."api_keys"."id", "identity"."api_keys"."org_id", "identity"."api_keys"."name", "identity"."api_keys"."role", "identity"."api_keys"."key_hash", "identity"."api_keys"."last4", "identity"."api_keys"."created_by", "identity"."api_keys"."created_at", "identity"."api_keys"."expires_at", "identity"."api_keys"."revoked_at", "identity"."api_keys"."last_used_at", "identity"."api_keys"."end_announced_at", "identity"."api_keys"."successor_id";
COMMIT;

-- ApiKeysRepository.roll(oldId, end {revokedAt}, successor, now), the old key rolled meanwhile
BEGIN;
UPDATE "identity"."api_keys" SET "revoked_at" = $1, "successor_id" = $2 WHERE ("identity"."api_keys"."id" = $3 AND "identity"."api_keys"."revoked_at" IS NULL AND "identity"."api_keys"."successor_id" IS NULL AND ("identity"."api_keys"."expires_at" IS NULL OR "identity"."api_keys"."expires_at" > $4));
COMMIT;

-- ApiKeysRepository.revoke(id, at)
UPDATE "identity"."api_keys" SET "revoked_at" = $1 WHERE ("identity"."api_keys"."id" = $2 AND "identity"."api_keys"."revoked_at" IS NULL);

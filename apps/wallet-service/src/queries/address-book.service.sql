-- The statements address-book.service.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- create(ctx, {'ethereum_sepolia', address, label}): without approvers, applied at once
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
SELECT 1 FROM address_book_entries WHERE org_id = $1 AND chain = $2 AND address_key = $3;
WITH w0 AS (INSERT INTO address_book_entries (id, org_id, chain, address, address_key, label, created_at)
VALUES ($1::uuid, $2::text, $3::text, $4::text,
        $5::text, $6::text, $7::timestamptz)), w1 AS (INSERT INTO approval_audit (id, org_id, principal_id, action, before, after, activity_id, approved_by, created_at)
VALUES ($8::uuid, $9::text, $10::text, $11::text,
        $12::jsonb, $13::jsonb, $14::uuid, $15::jsonb, $16::timestamptz)) SELECT 1;
COMMIT;

-- create(ctx, ...): with approvers, pending
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
SELECT 1 FROM address_book_entries WHERE org_id = $1 AND chain = $2 AND address_key = $3;
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)), w1 AS (INSERT INTO approval_changes (id, org_id, kind, change, before, status, activity_id, principal_id, due_at, created_at, updated_at)
VALUES ($15::uuid, $16::text, $17::text, $18::jsonb,
        $19::jsonb, $20::text, $21::uuid,
        $22::text, $23::timestamptz, $24::timestamptz,
        $25::timestamptz)), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($26::uuid, $27, $28, $29::jsonb, $30::text, clock_timestamp())) SELECT 1;
COMMIT;

-- remove(ctx, {entryId}): without approvers, applied at once
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", chain, address, address_key AS "addressKey", label, created_at AS "createdAt"
FROM address_book_entries WHERE org_id = $1 AND id = $2::uuid;
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
SELECT id::text AS id, org_id AS "orgId", chain, address, address_key AS "addressKey", label, created_at AS "createdAt"
FROM address_book_entries WHERE org_id = $1 AND id = $2::uuid;
WITH w0 AS (DELETE FROM address_book_entries WHERE org_id = $1::text AND id = $2::uuid), w1 AS (INSERT INTO approval_audit (id, org_id, principal_id, action, before, after, activity_id, approved_by, created_at)
VALUES ($3::uuid, $4::text, $5::text, $6::text,
        $7::jsonb, $8::jsonb, $9::uuid, $10::jsonb, $11::timestamptz)) SELECT 1;
COMMIT;

-- remove(ctx, {entryId}): with approvers, pending
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT id::text AS id, org_id AS "orgId", chain, address, address_key AS "addressKey", label, created_at AS "createdAt"
FROM address_book_entries WHERE org_id = $1 AND id = $2::uuid;
SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
     p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1;
WITH w0 AS (INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
VALUES ($1::uuid, $2::text, $3::uuid, $4::text, $5::uuid,
        $6::uuid, $7::uuid, $8::uuid, $9::text, $10::text, $11::int,
        $12::jsonb, $13::timestamptz, $14::timestamptz)), w1 AS (INSERT INTO approval_changes (id, org_id, kind, change, before, status, activity_id, principal_id, due_at, created_at, updated_at)
VALUES ($15::uuid, $16::text, $17::text, $18::jsonb,
        $19::jsonb, $20::text, $21::uuid,
        $22::text, $23::timestamptz, $24::timestamptz,
        $25::timestamptz)), w2 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($26::uuid, $27, $28, $29::jsonb, $30::text, clock_timestamp())) SELECT 1;
COMMIT;

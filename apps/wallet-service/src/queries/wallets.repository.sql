-- The statements wallets.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- lockWallet(tx, orgId, walletId)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE;

-- lockWalletsQuery([two wallets], {skipLocked: false})
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w;

-- lockWalletsQuery([two wallets], {skipLocked: true})
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
    ORDER BY w.id FOR UPDATE OF w SKIP LOCKED;

-- lockWalletCreation(tx, orgId)
SELECT pg_advisory_xact_lock(hashtext($1));

-- countWallets(tx, orgId)
SELECT count(*)::int AS count FROM wallets WHERE org_id = $1;

-- insertWallet(tx, {id, orgId, label 'ops', autoRebalance true, strategy})
WITH w AS (
     INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses)
     VALUES ($1::uuid, $2, $3, 'creating', $4, $5::jsonb, '{}'::jsonb) RETURNING *),
   p AS (INSERT INTO wallet_provisions (wallet_id, org_id) VALUES ($1::uuid, $2))
   SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses", w.created_at AS "createdAt", w.updated_at AS "updatedAt" FROM w;

-- findWallet(db, orgId, walletId)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2;

-- readWallets(db, [two ids])
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w WHERE w.id = ANY($1::uuid[]);

-- listWalletsQuery(orgId, {}, a first page, order desc)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w
    WHERE org_id = $1::text ORDER BY w.created_at DESC, w.id DESC LIMIT $2::int;

-- listWalletsQuery(orgId, {}, a first page, order asc)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w
    WHERE org_id = $1::text ORDER BY w.created_at ASC, w.id ASC LIMIT $2::int;

-- listWalletsQuery(orgId, {status}, a first page, order desc)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w
    WHERE org_id = $1::text AND status = ANY($2::text[]) ORDER BY w.created_at DESC, w.id DESC LIMIT $3::int;

-- listWalletsQuery(orgId, {status}, a first page, order asc)
SELECT w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses",
floor(extract(epoch FROM w.created_at) * 1000)::float8 AS "createdAtMs", floor(extract(epoch FROM w.updated_at) * 1000)::float8 AS "updatedAtMs", (SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                floor(extract(epoch FROM pos.accrued_at) * 1000)::float8) ORDER BY pos.position_id)
           FROM positions pos WHERE pos.wallet_id = w.id) AS positions FROM wallets w
    WHERE org_id = $1::text AND status = ANY($2::text[]) ORDER BY w.created_at ASC, w.id ASC LIMIT $3::int;

-- updateStrategy(tx, walletId, strategy, now, [one event])
WITH w0 AS (UPDATE wallets SET strategy = $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::uuid), w1 AS (INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($4::uuid, $5, $6, $7::jsonb, $8::text, clock_timestamp())) SELECT 1;

-- addDepositAddresses(writes, walletId, addresses, now), alone
WITH w0 AS (UPDATE wallets SET deposit_addresses = $1::jsonb, updated_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- addStatusUpdate(writes, an idle wallet, 'withdrawal_active', now), alone
WITH w0 AS (UPDATE wallets SET status = $1::text, updated_at = $2::timestamptz WHERE id = $3::uuid) SELECT 1;

-- addStatusUpdate(writes, a creating wallet, 'idle', now, {depositAddresses}): it leaves wallet_provisions too, alone
WITH w0 AS (UPDATE wallets SET status = $2::text, updated_at = $3::timestamptz, deposit_addresses = $1::jsonb WHERE id = $4::uuid), w1 AS (DELETE FROM wallet_provisions WHERE wallet_id = $5::uuid) SELECT 1;

-- readRunning(tx, walletId)
SELECT EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = $1::uuid AND o.status = 'processing') AS withdrawals,
EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = $1::uuid AND r.status = 'processing') AS rebalances;

-- The statements feed.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- feedQuery(orgId, {}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 ORDER BY "timestamp" DESC, id DESC LIMIT $2;

-- feedQuery(orgId, {}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND ("timestamp", id) < ($2::timestamptz, $3::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $4;

-- feedQuery(orgId, {statuses}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND status = ANY($2::text[]) ORDER BY "timestamp" DESC, id DESC LIMIT $3;

-- feedQuery(orgId, {statuses}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND status = ANY($2::text[]) AND ("timestamp", id) < ($3::timestamptz, $4::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $5;

-- feedQuery(orgId, {type}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND type = $2 ORDER BY "timestamp" DESC, id DESC LIMIT $3;

-- feedQuery(orgId, {type}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND type = $2 AND ("timestamp", id) < ($3::timestamptz, $4::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $5;

-- feedQuery(orgId, {type, statuses}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND type = $2 AND status = ANY($3::text[]) ORDER BY "timestamp" DESC, id DESC LIMIT $4;

-- feedQuery(orgId, {type, statuses}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND type = $2 AND status = ANY($3::text[]) AND ("timestamp", id) < ($4::timestamptz, $5::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $6;

-- feedQuery(orgId, {walletIds}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) ORDER BY "timestamp" DESC, id DESC LIMIT $3;

-- feedQuery(orgId, {walletIds}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND ("timestamp", id) < ($3::timestamptz, $4::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $5;

-- feedQuery(orgId, {walletIds, statuses}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND status = ANY($3::text[]) ORDER BY "timestamp" DESC, id DESC LIMIT $4;

-- feedQuery(orgId, {walletIds, statuses}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND status = ANY($3::text[]) AND ("timestamp", id) < ($4::timestamptz, $5::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $6;

-- feedQuery(orgId, {walletIds, type}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND type = $3 ORDER BY "timestamp" DESC, id DESC LIMIT $4;

-- feedQuery(orgId, {walletIds, type}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND type = $3 AND ("timestamp", id) < ($4::timestamptz, $5::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $6;

-- feedQuery(orgId, {walletIds, type, statuses}, a page first)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND type = $3 AND status = ANY($4::text[]) ORDER BY "timestamp" DESC, id DESC LIMIT $5;

-- feedQuery(orgId, {walletIds, type, statuses}, a page after a cursor)
SELECT id, wallet_id, type, status, amount_usd, to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso, resource FROM activity_items WHERE org_id = $1 AND wallet_id = ANY($2::uuid[]) AND type = $3 AND status = ANY($4::text[]) AND ("timestamp", id) < ($5::timestamptz, $6::uuid) ORDER BY "timestamp" DESC, id DESC LIMIT $7;

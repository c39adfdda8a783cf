-- The statements activity-items.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- upsertItem(tx, item)
INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
ON CONFLICT (org_id, id) DO UPDATE SET
  wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
  amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
  observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
WHERE activity_items.type = EXCLUDED.type
  AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
    > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id);

-- upsertItems(tx, [two items of two rows]): one statement for the batch
INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::smallint[], $7::bigint[], $8::timestamptz[], $9::jsonb[], $10::timestamptz[], $11::uuid[])
ON CONFLICT (org_id, id) DO UPDATE SET
  wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
  amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
  observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
WHERE activity_items.type = EXCLUDED.type
  AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
    > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id);

-- upsertItems(tx, [two items of one row]): reduced to the one kept, upserted alone
INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
ON CONFLICT (org_id, id) DO UPDATE SET
  wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
  amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
  observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
WHERE activity_items.type = EXCLUDED.type
  AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
    > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id);

-- upsertItems(tx, [two items of one row with different types]): one by one, as they came
INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
ON CONFLICT (org_id, id) DO UPDATE SET
  wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
  amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
  observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
WHERE activity_items.type = EXCLUDED.type
  AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
    > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id);
INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
ON CONFLICT (org_id, id) DO UPDATE SET
  wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
  amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
  observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
WHERE activity_items.type = EXCLUDED.type
  AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
    > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id);

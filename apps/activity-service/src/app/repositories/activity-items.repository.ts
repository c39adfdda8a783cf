import type { SqlExecutor } from '@service/events';
import type { ProjectedItem } from '../domain/activity-item.js';

/**
 * Keeps the item only when the incoming state is further along: a higher status rank, or the same
 * rank observed later (event id breaks ties). The winner does not depend on arrival order, so late,
 * repeated or reordered events, and a replay from the start of the stream, give the same row.
 */
const UPSERT_ITEM = `
  INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
  VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
  ON CONFLICT (org_id, id) DO UPDATE SET
    wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
    amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
    observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
  WHERE activity_items.type = EXCLUDED.type
    AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
      > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id)`;

export async function upsertItem(tx: SqlExecutor, item: ProjectedItem): Promise<void> {
  await tx.$executeRawUnsafe(
    UPSERT_ITEM,
    item.orgId,
    item.id,
    item.walletId,
    item.type,
    item.status,
    item.statusRank,
    item.amountMicros.toString(),
    item.timestamp.toISOString(),
    JSON.stringify(item.resource),
    item.observedAt.toISOString(),
    item.eventId,
  );
}

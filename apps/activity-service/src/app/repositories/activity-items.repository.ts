import { executeWrite, type PgSqlExecutor } from '@service/sql';
import type { ProjectedItem } from '../domain/activity-item.js';

const INSERT_ITEM =
  'INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)';

/**
 * Keeps the item only when the incoming state is further along: a higher status rank, or the same
 * rank observed later (event id breaks ties). The winner does not depend on arrival order, so late,
 * repeated or reordered events, and a replay from the start of the stream, give the same row.
 */
const KEEP_FURTHER_ALONG = `
  ON CONFLICT (org_id, id) DO UPDATE SET
    wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
    amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
    observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
  WHERE activity_items.type = EXCLUDED.type
    AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
      > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id)`;

const UPSERT_ITEM = `${INSERT_ITEM}
  VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)${KEEP_FURTHER_ALONG}`;

/** The same upsert for many items at once: one row per item, the arrays in column order. */
const UPSERT_ITEMS = `${INSERT_ITEM}
  SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::smallint[], $7::bigint[], $8::timestamptz[], $9::jsonb[], $10::timestamptz[], $11::uuid[])${KEEP_FURTHER_ALONG}`;

/** Whether `a` wins over `b` by the upsert's rule: status rank, then time observed, then event id. */
function furtherAlong(a: ProjectedItem, b: ProjectedItem): boolean {
  if (a.statusRank !== b.statusRank) return a.statusRank > b.statusRank;
  if (a.observedAt.getTime() !== b.observedAt.getTime()) return a.observedAt.getTime() > b.observedAt.getTime();
  // uuid order in PostgreSQL is the byte order, which is that of the lowercase hex text.
  return a.eventId.toLowerCase() > b.eventId.toLowerCase();
}

/**
 * Upserts many items in one statement. A statement may change a row once, so the items of one
 * row are reduced first to the one the rule keeps, which is the row applying them one by one in
 * any order would leave. Items of one row with different types (the rule leaves such a row to
 * whichever type came first) are applied one by one, as they arrived. In a pipelined transaction
 * (the projection's) the statements go with the COMMIT rather than in a round trip of their own.
 */
export async function upsertItems(tx: PgSqlExecutor, items: readonly ProjectedItem[]): Promise<void> {
  if (items.length === 0) return;
  const winners = new Map<string, ProjectedItem>();
  for (const item of items) {
    const key = `${item.orgId}\u0000${item.id.toLowerCase()}`;
    const kept = winners.get(key);
    if (kept && kept.type !== item.type) {
      for (const each of items) await upsertItem(tx, each);
      return;
    }
    if (!kept || furtherAlong(item, kept)) winners.set(key, item);
  }
  const rows = [...winners.values()];
  if (rows.length === 1 && rows[0]) {
    await upsertItem(tx, rows[0]);
    return;
  }
  await executeWrite(
    tx,
    UPSERT_ITEMS,
    rows.map((item) => item.orgId),
    rows.map((item) => item.id),
    rows.map((item) => item.walletId),
    rows.map((item) => item.type),
    rows.map((item) => item.status),
    rows.map((item) => item.statusRank),
    rows.map((item) => item.amountMicros.toString()),
    rows.map((item) => item.timestamp.toISOString()),
    rows.map((item) => JSON.stringify(item.resource)),
    rows.map((item) => item.observedAt.toISOString()),
    rows.map((item) => item.eventId),
  );
}

export async function upsertItem(tx: PgSqlExecutor, item: ProjectedItem): Promise<void> {
  await executeWrite(
    tx,
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

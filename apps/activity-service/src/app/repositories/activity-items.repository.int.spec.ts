import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgPoolSql } from '@service/sql';
import { type IsolatedSchema, migratedSchema, newRunId, TEST_DATABASE_URL, updatesDuring } from '@service/testing';
import type { ProjectedItem } from '../domain/activity-item.js';
import { upsertItem, upsertItems } from './activity-items.repository.js';

let schema: IsolatedSchema;
let db: PgPoolSql;

beforeAll(async () => {
  schema = await migratedSchema('activity-service', newRunId());
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema });
});

afterAll(async () => {
  await db?.end();
  await schema?.drop();
});

const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 10, 0, second));

function item(
  id: string,
  status: string,
  statusRank: number,
  observedSecond: number,
  eventId = randomUUID(),
  type: ProjectedItem['type'] = 'withdrawal',
): ProjectedItem {
  return {
    orgId: 'org_batch',
    id,
    walletId: '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11',
    type,
    status: status as ProjectedItem['status'],
    statusRank,
    amountMicros: 1_000_000n + BigInt(observedSecond),
    timestamp: at(0),
    resource: { status, note: `it's "quoted" \\ at ${observedSecond}` },
    observedAt: at(observedSecond),
    eventId,
  };
}

async function rowOf(id: string): Promise<Record<string, unknown> | undefined> {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    'SELECT type, status, status_rank, amount_usd::text AS amount, resource, observed_at, event_id::text AS event_id FROM activity_items WHERE id = $1::uuid',
    id,
  );
  return rows[0];
}

/** Every order of `items` (a few items: n! orders). */
function orders<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, index) => orders([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [first, ...rest]));
}

describe('upsertItems', () => {
  it('leaves each row as applying its items one by one would, in any order, in one statement', async () => {
    const ties = [randomUUID(), randomUUID()].sort();
    const events = [randomUUID(), randomUUID(), ties[0], ties[1], randomUUID()];
    // Per row: lower and higher ranks, a same-rank item observed later, and two tied on time (event id decides).
    const variants = (id: string) => [
      item(id, 'created', 0, 5, events[0]),
      item(id, 'processing', 1, 10, events[1]),
      item(id, 'processing', 1, 20, events[2]),
      item(id, 'processing', 1, 20, events[3]),
      item(id, 'completed', 2, 3, events[4]),
    ];
    for (const order of orders([0, 1, 2, 3, 4])) {
      // Row A gets every item; row B all but the completed one, so a tie on rank and time decides it.
      const [oneA, oneB, batchA, batchB] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const without = order.filter((index) => index !== 4);
      for (const index of order) await upsertItem(db, variants(oneA)[index] as ProjectedItem);
      for (const index of without) await upsertItem(db, variants(oneB)[index] as ProjectedItem);
      // An earlier row of its own that the same statement moves forward.
      const other = randomUUID();
      await upsertItem(db, item(other, 'created', 0, 1));
      const batch = [
        ...order.map((index) => variants(batchA)[index] as ProjectedItem),
        ...without.map((index) => variants(batchB)[index] as ProjectedItem),
        item(other, 'processing', 1, 2),
      ];
      await db.$transaction((tx) => upsertItems(tx, batch));
      const [a, b] = [await rowOf(oneA), await rowOf(oneB)];
      expect(a).toMatchObject({ status: 'completed', status_rank: 2, event_id: events[4] });
      expect(b).toMatchObject({ status: 'processing', status_rank: 1, event_id: ties[1] });
      expect(await rowOf(batchA)).toEqual(a);
      expect(await rowOf(batchB)).toEqual(b);
      expect(await rowOf(other)).toMatchObject({ status: 'processing', status_rank: 1 });
    }
    // Tied rank and time: the higher event id wins, as the one-by-one rule says.
    const tied = randomUUID();
    await db.$transaction((tx) => upsertItems(tx, [item(tied, 'processing', 1, 20, ties[1]), item(tied, 'processing', 1, 20, ties[0])]));
    expect(await rowOf(tied)).toMatchObject({ event_id: ties[1] });
  });

  it('never lets a batch move a row back, and keeps a row to the type it was created with', async () => {
    const id = randomUUID();
    await upsertItem(db, item(id, 'completed', 2, 9));
    await db.$transaction((tx) => upsertItems(tx, [item(id, 'processing', 1, 30), item(id, 'created', 0, 40)]));
    expect(await rowOf(id)).toMatchObject({ status: 'completed', status_rank: 2 });

    // The same id under two types in one batch: applied one by one, the first type keeps the row.
    const mixed = randomUUID();
    await db.$transaction((tx) => upsertItems(tx, [item(mixed, 'created', 0, 1, randomUUID(), 'deposit'), item(mixed, 'completed', 2, 2)]));
    expect(await rowOf(mixed)).toMatchObject({ type: 'deposit', status: 'created' });
  });
});

describe('activity_items pages', () => {
  it("keep room for an item's next status: an update of an item on a page since filled by newer items is HOT", async () => {
    // Items about the size of a withdrawal's: a full page holds about ten.
    const sized = (id: string, status: string, rank: number, second: number) => ({
      ...item(id, status, rank, second),
      resource: { status, padding: 'x'.repeat(600) },
    });
    const ids = Array.from({ length: 40 }, () => randomUUID());
    await db.$transaction((tx) =>
      upsertItems(
        tx,
        ids.map((id) => sized(id, 'created', 0, 1)),
      ),
    );
    // One from the middle of the batch: on a page the batch filled (the first may share the last one earlier tests left room on).
    const middle = ids[20] as string;
    const updates = await db.$transaction((tx) =>
      updatesDuring(tx, 'activity_items', () => upsertItems(tx, [sized(middle, 'processing', 1, 2)])),
    );
    expect(updates).toEqual({ updated: 1, hot: 1 });
  });
});

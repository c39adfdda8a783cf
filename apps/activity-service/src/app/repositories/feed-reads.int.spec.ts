import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgPoolSql } from '@service/sql';
import { countRoundTrips, type IsolatedSchema, migratedSchema, newRunId, type RoundTrips, TEST_DATABASE_URL } from '@service/testing';
import { pino } from 'pino';
import type { ActivityConfig } from '../../config.js';
import type { ProjectedItem } from '../domain/activity-item.js';
import { feedPage, parseFeedFilters } from '../domain/feed-filters.js';
import { upsertItems } from './activity-items.repository.js';
import { FeedRepository } from './feed.repository.js';

let schema: IsolatedSchema;
let feed: FeedRepository;
let trips: RoundTrips;
const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';

function item(orgId: string, second: number): ProjectedItem {
  return {
    orgId,
    id: randomUUID(),
    walletId: WALLET,
    type: 'deposit',
    status: 'completed',
    statusRank: 2,
    amountMicros: 1_000_000n * BigInt(second),
    timestamp: new Date(Date.UTC(2026, 10, 24, 10, 0, second)),
    resource: { note: `it's "quoted" \\ ${second}` },
    observedAt: new Date(Date.UTC(2026, 10, 24, 10, 0, second)),
    eventId: randomUUID(),
  };
}

beforeAll(async () => {
  schema = await migratedSchema('activity-service', newRunId());
  const db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema });
  await upsertItems(db, [item('org_a', 1), item('org_a', 2), item('org_a', 3), item('org_b', 4)]);
  await db.end();
  const config = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema.schema, ACTIVITY_QUERY_TIMEOUT_MS: 2000 } as ActivityConfig;
  feed = new FeedRepository(config, pino({ level: 'silent' }));
  trips = countRoundTrips();
});

afterAll(async () => {
  trips?.restore();
  await feed?.onApplicationShutdown();
  await schema?.drop();
});

const firstPage = (limit?: number) => feedPage(parseFeedFilters({}), { limit });

describe('FeedRepository', () => {
  it("reads the pages asked for in one turn in one round trip, each organization's own, an identical page read once for its requests", async () => {
    await feed.read('org_a', parseFeedFilters({}), firstPage()); // the connection and the statement's PREPARE
    trips.reset();
    const [a, sameA, b, aOfTwo] = await Promise.all([
      feed.read('org_a', parseFeedFilters({}), firstPage()),
      feed.read('org_a', parseFeedFilters({}), firstPage()),
      feed.read('org_b', parseFeedFilters({}), firstPage()),
      feed.read('org_a', parseFeedFilters({}), firstPage(2)),
    ]);
    expect(trips.count).toBe(1);
    expect(a.map((row) => row.amount_usd)).toEqual(['3000000', '2000000', '1000000']);
    expect(a[0]).toMatchObject({
      type: 'deposit',
      status: 'completed',
      wallet_id: WALLET,
      timestamp_iso: '2026-11-24T10:00:03.000Z',
      resource: { note: `it's "quoted" \\ 3` },
    });
    expect(sameA).toBe(a);
    expect(b.map((row) => row.amount_usd)).toEqual(['4000000']);
    // A page reads one row more than it shows.
    expect(aOfTwo.map((row) => row.amount_usd)).toEqual(['3000000', '2000000', '1000000']);
  });
});

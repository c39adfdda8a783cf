import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry, unrecordedRawSqlFunctions } from '@service/testing';
import type { ProjectedItem } from '../app/domain/activity-item.js';
import { feedPage, type FeedFilters } from '../app/domain/feed-filters.js';
import { upsertItem, upsertItems } from '../app/repositories/activity-items.repository.js';
import { feedQuery } from '../app/repositories/feed.repository.js';

/**
 * Every statement activity-service runs, as text: each function is called with representative
 * inputs on a `RecordingSql` (each shape of a statement that varies with its input), and what it
 * ran is compared with `src/queries/<module>.sql` (`UPDATE_SQL=1` writes the files).
 */
const sql = new RecordingSql();
/** The recorder where a function takes `PgPoolSql` or its transaction (`PgSqlExecutor` of @service/sql), which it stands in for. */
const pg = sql as never;
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);

const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const item = (id: string, overrides: Partial<ProjectedItem> = {}): ProjectedItem => ({
  orgId: 'org_a',
  id,
  walletId: WALLET,
  type: 'deposit',
  status: 'processing',
  statusRank: 1,
  amountMicros: 5_000_000n,
  timestamp: new Date('2026-11-21T10:00:00.000Z'),
  resource: { id },
  observedAt: new Date('2026-11-21T10:00:01.000Z'),
  eventId: '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88',
  ...overrides,
});
const ONE = '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
const TWO = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** Every combination of the feed's filters, each without and with a cursor. */
function feedShapes(): SqlFileEntry[] {
  const entries: SqlFileEntry[] = [];
  for (const walletIds of [undefined, [WALLET]])
    for (const type of [undefined, 'withdrawal' as const])
      for (const statuses of [undefined, ['processing' as const, 'completed' as const]])
        for (const cursor of [false, true]) {
          const filters: FeedFilters = { walletIds, type, statuses };
          const after = cursor ? feedPage(filters, {}).cursorOf({ createdAt: new Date('2026-11-21T10:00:00.000Z'), id: ONE }) : undefined;
          const query = feedQuery('org_a', filters, feedPage(filters, { cursor: after, limit: 20 }));
          const named = [walletIds && 'walletIds', type && 'type', statuses && 'statuses'].filter(Boolean);
          entries.push({
            call: `feedQuery(orgId, {${named.join(', ')}}, a page ${cursor ? 'after a cursor' : 'first'})`,
            statements: [query],
          });
        }
  return entries;
}

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'activity-items.repository': async () => [
    await ran('upsertItem(tx, item)', () => upsertItem(pg, item(ONE))),
    await ran('upsertItems(tx, [two items of two rows]): one statement for the batch', () => upsertItems(pg, [item(ONE), item(TWO)])),
    await ran('upsertItems(tx, [two items of one row]): reduced to the one kept, upserted alone', () =>
      upsertItems(pg, [item(ONE), item(ONE, { status: 'completed', statusRank: 2 })]),
    ),
    await ran('upsertItems(tx, [two items of one row with different types]): one by one, as they came', () =>
      upsertItems(pg, [item(ONE), item(ONE, { type: 'withdrawal' })]),
    ),
  ],
  'feed.repository': async () => feedShapes(),
};

describe('the statements of activity-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { encodeCursor } from '@service/pagination';
import { feedPage, parseFeedFilters } from './feed-filters.js';

const A = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const B = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';

describe('parseFeedFilters', () => {
  it('canonicalises wallet ids and statuses so equal filters compare equal', () => {
    expect(parseFeedFilters({ walletId: [A.toUpperCase(), B, A], status: 'completed,created' })).toEqual({
      walletIds: [B, A],
      type: undefined,
      statuses: ['created', 'completed'],
    });
  });

  it('treats `all`, every status named, and no status alike', () => {
    expect(parseFeedFilters({ status: 'all' }).statuses).toBeUndefined();
    expect(parseFeedFilters({ status: 'created,processing,completed,partially_completed,failed,cancelled' }).statuses).toBeUndefined();
    expect(parseFeedFilters({ status: 'created,processing,completed,failed,cancelled' }).statuses).toEqual([
      'created',
      'processing',
      'completed',
      'failed',
      'cancelled',
    ]);
  });

  // What the gateway's ActivityQueryDto refuses (bad UUIDs, types, statuses) is tested end to end in test/feed.e2e.spec.ts.
});

describe('feed cursors', () => {
  const filters = parseFeedFilters({ type: 'deposit' });

  const cursorAt = (createdAt: string, id: string) => feedPage(filters, {}).cursorOf({ createdAt: new Date(createdAt), id });
  const readFeedCursor = (cursor: string, under: typeof filters) => feedPage(under, { cursor }).after;

  it('round-trips a position under the same filters', () => {
    const cursor = cursorAt('2026-11-21T10:00:00.000Z', A);
    expect(readFeedCursor(cursor, parseFeedFilters({ type: 'deposit' }))).toEqual({ createdAt: '2026-11-21T10:00:00.000Z', id: A });
  });

  it('refuses a cursor used with other filters, a malformed one, or one with a bad position', () => {
    const cursor = cursorAt('2026-11-21T10:00:00.000Z', A);
    const invalid = expect.objectContaining({ code: 'invalid_cursor' });
    expect(() => readFeedCursor(cursor, parseFeedFilters({ type: 'withdrawal' }))).toThrow(invalid);
    expect(() => readFeedCursor('%%%', filters)).toThrow(invalid);
    const forged = encodeCursor('activity', { type: 'deposit' }, ['yesterday', A]);
    expect(() => readFeedCursor(forged, filters)).toThrow(invalid);
  });
});

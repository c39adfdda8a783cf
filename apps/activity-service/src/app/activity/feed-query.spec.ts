import { describe, expect, it } from '@jest/globals';
import { encodeCursor } from '@service/pagination';
import { feedCursor, feedQuery, parseFeedFilters, readFeedCursor } from './feed-query.js';

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
    expect(parseFeedFilters({ status: 'created,processing,completed,failed,cancelled' }).statuses).toBeUndefined();
  });

  it.each([
    [{ walletId: 'not-a-uuid' }],
    [{ walletId: [A, 'x'] }],
    [{ type: 'transfer' }],
    [{ status: 'done' }],
    [{ status: 'created,' }],
    [{ status: '' }],
  ])('refuses %j with validation_error', (input) => {
    expect(() => parseFeedFilters(input)).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});

describe('feed cursors', () => {
  const filters = parseFeedFilters({ type: 'deposit' });

  it('round-trips a position under the same filters', () => {
    const cursor = feedCursor(filters, ['2026-11-21T10:00:00.000Z', A]);
    expect(readFeedCursor(cursor, parseFeedFilters({ type: 'deposit' }))).toEqual(['2026-11-21T10:00:00.000Z', A]);
  });

  it('refuses a cursor used with other filters, a malformed one, or one with a bad position', () => {
    const cursor = feedCursor(filters, ['2026-11-21T10:00:00.000Z', A]);
    const invalid = expect.objectContaining({ code: 'invalid_cursor' });
    expect(() => readFeedCursor(cursor, parseFeedFilters({ type: 'withdrawal' }))).toThrow(invalid);
    expect(() => readFeedCursor('%%%', filters)).toThrow(invalid);
    const forged = encodeCursor('activity', { type: 'deposit' }, ['yesterday', A]);
    expect(() => readFeedCursor(forged, filters)).toThrow(invalid);
  });
});

describe('feedQuery', () => {
  it('pages by a row comparison on (timestamp, id), never OFFSET, scoped to the organization', () => {
    const query = feedQuery('org_a', parseFeedFilters({ walletId: A, type: 'deposit', status: 'processing' }), ['2026-11-21T10:00:00.000Z', B], 21);
    expect(query.text).toContain('org_id = $1');
    expect(query.text).toContain('("timestamp", id) < ($5::timestamptz, $6::uuid)');
    expect(query.text).toContain('ORDER BY "timestamp" DESC, id DESC LIMIT $7');
    expect(query.text).not.toMatch(/OFFSET/i);
    expect(query.values).toEqual(['org_a', [A], 'deposit', ['processing'], '2026-11-21T10:00:00.000Z', B, 21]);
  });
});

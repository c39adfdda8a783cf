import { describe, expect, it } from '@jest/globals';
import { feedPage, parseFeedFilters } from '../domain/feed-filters.js';
import { feedQuery } from './feed.repository.js';

const A = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const B = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';

describe('feedQuery', () => {
  it('pages by a row comparison on (timestamp, id), never OFFSET, scoped to the organization', () => {
    const filters = parseFeedFilters({ walletId: A, type: 'deposit', status: 'processing' });
    const after = feedPage(filters, {}).cursorOf({ createdAt: new Date('2026-11-21T10:00:00.000Z'), id: B });
    const query = feedQuery('org_a', filters, feedPage(filters, { cursor: after, limit: 20 }));
    expect(query.text).toContain('org_id = $1');
    expect(query.text).toContain('("timestamp", id) < ($5::timestamptz, $6::uuid)');
    expect(query.text).toContain('ORDER BY "timestamp" DESC, id DESC LIMIT $7');
    expect(query.text).not.toMatch(/OFFSET/i);
    expect(query.values).toEqual(['org_a', [A], 'deposit', ['processing'], '2026-11-21T10:00:00.000Z', B, 21]);
  });
});

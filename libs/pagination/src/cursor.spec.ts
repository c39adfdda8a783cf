import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { decodeCursor, encodeCursor, parseLimit, toPage } from './index.js';

describe('cursors', () => {
  const filters = { type: 'deposit', walletId: ['a'] };

  it('round-trips a keyset position for the same list and filters', () => {
    const cursor = encodeCursor('activity', filters, ['2026-11-21T10:00:00.000Z', 'id-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'activity', { walletId: ['a'], type: 'deposit' }, 2)).toEqual(['2026-11-21T10:00:00.000Z', 'id-1']);
  });

  it('rejects cursors from another list, other filters, malformed text or another shape', () => {
    const cursor = encodeCursor('activity', filters, ['t', 'id']);
    expect(thrownCode(() => decodeCursor(cursor, 'webhooks', filters, 2))).toBe('invalid_cursor');
    expect(thrownCode(() => decodeCursor(cursor, 'activity', { type: 'withdrawal' }, 2))).toBe('invalid_cursor');
    expect(thrownCode(() => decodeCursor(cursor, 'activity', filters, 3))).toBe('invalid_cursor');
    expect(thrownCode(() => decodeCursor('not a cursor!', 'activity', filters, 2))).toBe('invalid_cursor');
    expect(thrownCode(() => decodeCursor('bm90IGpzb24', 'activity', filters, 2))).toBe('invalid_cursor');
  });
});

describe('parseLimit', () => {
  it('defaults and bounds the page size', () => {
    expect(parseLimit(undefined)).toBe(25);
    expect(parseLimit(undefined, 20)).toBe(20);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '']) {
      if (bad === '') continue;
      expect(thrownCode(() => parseLimit(bad))).toBe('validation_error');
    }
  });
});

describe('toPage', () => {
  it('uses the extra row only to decide there is a next page', () => {
    const rows = [1, 2, 3];
    expect(
      toPage(
        rows,
        2,
        (row) => `c${row}`,
        (row) => row * 10,
      ),
    ).toEqual({ data: [10, 20], nextCursor: 'c2' });
    expect(
      toPage(
        rows,
        3,
        (row) => `c${row}`,
        (row) => row,
      ),
    ).toEqual({ data: [1, 2, 3], nextCursor: null });
  });
});

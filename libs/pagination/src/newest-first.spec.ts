import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { ACTIVITY_DEFAULT_LIMIT, encodeCursor, KeysetPage, NewestFirst } from './index.js';

const rows = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    createdAt: new Date(Date.UTC(2026, 10, 21, 10, 0, 0, 500 - index)),
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  }));

describe('NewestFirst', () => {
  it('reads a first page with the default limit, one extra row, and points the cursor at its last row', () => {
    const first = new NewestFirst('wallets', { orgId: 'o' }, {});
    expect(first.after).toBeUndefined();
    expect(new NewestFirst('wallets', { orgId: 'o' }, { cursor: '' }).after).toBeUndefined();
    expect(first.where).toEqual({});
    expect(first.take).toBe(26);
    expect(new NewestFirst('activity', {}, {}, ACTIVITY_DEFAULT_LIMIT).limit).toBe(20);

    const small = new NewestFirst('wallets', { orgId: 'o' }, { limit: 2 });
    const page = small.page(rows(3), (row) => row.id);
    expect(page.data).toEqual([rows(3)[0]!.id, rows(3)[1]!.id]);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(small.page(rows(2), (row) => row.id).nextCursor).toBeNull();

    const next = new NewestFirst('wallets', { orgId: 'o' }, { cursor: page.nextCursor!, limit: 2 });
    const last = rows(2)[1]!;
    expect(next.after).toEqual({ createdAt: last.createdAt.toISOString(), id: last.id });
    expect(next.where).toEqual({ OR: [{ createdAt: { lt: last.createdAt } }, { createdAt: last.createdAt, id: { lt: last.id } }] });
  });

  it("gives Prisma's findMany arguments: the list's filter with the rows after the cursor, the order and the extra row", () => {
    const cursor = new NewestFirst('wallets', {}, {}).cursorOf(rows(1)[0]!);
    const page = new NewestFirst('wallets', {}, { cursor, limit: 5 });
    expect(page.findArgs({ orgId: 'o' })).toEqual({ where: { orgId: 'o', ...page.where }, orderBy: page.orderBy, take: 6 });
    expect(new NewestFirst('wallets', {}, {}).findArgs({ orgId: 'o' })).toEqual({
      where: { orgId: 'o' },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 26,
    });
  });

  it('writes the SQL row comparison with bound parameters', () => {
    const cursor = new NewestFirst('feed', {}, {}).cursorOf(rows(1)[0]!);
    const values: unknown[] = [];
    const bind = (value: unknown, cast: string) => `$${values.push(value)}${cast}`;
    expect(new NewestFirst('feed', {}, {}).sqlAfter(bind, ['"timestamp"', 'id'])).toBeUndefined();
    expect(new NewestFirst('feed', {}, { cursor }).sqlAfter(bind, ['"timestamp"', 'id'])).toBe(
      '("timestamp", id) < ($1::timestamptz, $2::uuid)',
    );
    expect(values).toEqual([rows(1)[0]!.createdAt.toISOString(), rows(1)[0]!.id]);
  });

  it('refuses a cursor of another list, other filters, or holding anything but a millisecond timestamp and a UUID', () => {
    const cursor = new NewestFirst('wallets', { orgId: 'o' }, {}).cursorOf(rows(1)[0]!);
    const read = (list: string, filters: Record<string, unknown>, text: string) => () => new NewestFirst(list, filters, { cursor: text });
    expect(thrownCode(read('wallets', { orgId: 'o' }, cursor))).toBeUndefined();
    expect(thrownCode(read('deposits', { orgId: 'o' }, cursor))).toBe('invalid_cursor');
    expect(thrownCode(read('wallets', { orgId: 'p' }, cursor))).toBe('invalid_cursor');
    const id = rows(1)[0]!.id;
    for (const position of [
      ['2026-13-45T99:00:00.000Z', id],
      ['yesterday', id],
      ['2026-11-21T10:00:00Z', id],
      ['2026-11-21T10:00:00.000Z', 'not-a-uuid'],
      [1, id],
    ]) {
      expect(thrownCode(read('wallets', {}, encodeCursor('wallets', {}, position as (string | number)[])))).toBe('invalid_cursor');
    }
    expect(thrownCode(read('wallets', {}, 'not a cursor'))).toBe('invalid_cursor');
  });
});

describe('KeysetPage', () => {
  it('reads oldest first with order asc: rows after the cursor are later, in SQL too', () => {
    const row = rows(1)[0]!;
    const first = new KeysetPage('deposits', { walletId: 'w' }, { limit: 2 }, { order: 'asc' });
    expect(first.orderBy).toEqual([{ createdAt: 'asc' }, { id: 'asc' }]);
    const next = new KeysetPage('deposits', { walletId: 'w' }, { cursor: first.cursorOf(row) }, { order: 'asc' });
    expect(next.where).toEqual({ OR: [{ createdAt: { gt: row.createdAt } }, { createdAt: row.createdAt, id: { gt: row.id } }] });
    const values: unknown[] = [];
    expect(next.sqlAfter((value, cast) => `$${values.push(value)}${cast}`, ['created_at', 'id'])).toBe(
      '(created_at, id) > ($1::timestamptz, $2::uuid)',
    );
    expect(new NewestFirst('deposits', {}, {}).orderBy).toEqual([{ createdAt: 'desc' }, { id: 'desc' }]);
  });

  it('binds a cursor to its order: one made newest first is refused oldest first and the other way round', () => {
    const row = rows(1)[0]!;
    const desc = new NewestFirst('deposits', { walletId: 'w' }, {}).cursorOf(row);
    const asc = new KeysetPage('deposits', { walletId: 'w' }, {}, { order: 'asc' }).cursorOf(row);
    expect(thrownCode(() => new KeysetPage('deposits', { walletId: 'w' }, { cursor: desc }, { order: 'asc' }))).toBe('invalid_cursor');
    expect(thrownCode(() => new KeysetPage('deposits', { walletId: 'w' }, { cursor: asc }, { order: 'desc' }))).toBe('invalid_cursor');
    expect(thrownCode(() => new KeysetPage('deposits', { walletId: 'w' }, { cursor: desc }, { order: 'desc' }))).toBeUndefined();
    expect(thrownCode(() => new KeysetPage('deposits', { walletId: 'w' }, { cursor: asc }, { order: 'asc' }))).toBeUndefined();
  });
});

import { ServiceError } from '@service/errors';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, type Page, toPage } from './cursor.js';

/** Where a newest-first page starts: the sort key of the last row of the page before. */
export interface NewestFirstPosition {
  /** ISO 8601 with milliseconds, as the cursor carries it. */
  readonly createdAt: string;
  readonly id: string;
}

/** What a newest-first list row is sorted by. */
export interface NewestFirstRow {
  readonly createdAt: Date;
  readonly id: string;
}

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const malformed = () => new ServiceError('invalid_cursor', 'The cursor is malformed or belongs to another list or filter.');

/** The direction a keyset list reads `(createdAt, id)` in. */
export type KeysetOrder = 'asc' | 'desc';

/**
 * Keyset paging of a list by `(createdAt, id)`, newest first (`desc`, every list's default) or
 * oldest first (`asc`). One list, one set of filters and one order make one kind of cursor: a
 * cursor of another list, made under other filters or in the other order, or holding anything but
 * a millisecond timestamp and a UUID is `invalid_cursor`. An empty `cursor` (`?cursor=`, what a
 * client that fills in "no cursor yet" sends) is the first page.
 */
export class KeysetPage {
  /** Where the page starts; undefined for the first page. */
  readonly after: NewestFirstPosition | undefined;
  readonly limit: number;
  readonly order: KeysetOrder;
  private readonly filters: Record<string, unknown>;

  constructor(
    private readonly list: string,
    filters: Record<string, unknown>,
    query: { readonly cursor?: string; readonly limit?: number },
    options: { readonly order?: KeysetOrder; readonly defaultLimit?: number } = {},
  ) {
    this.order = options.order ?? 'desc';
    // The order binds the cursor like a filter; `desc` adds nothing, so its cursors stay as they were.
    this.filters = this.order === 'asc' ? { ...filters, order: 'asc' } : filters;
    this.after = query.cursor ? positionOf(decodeCursor(query.cursor, list, this.filters, 2)) : undefined;
    this.limit = query.limit ?? options.defaultLimit ?? DEFAULT_LIMIT;
  }

  /** Rows to read: one more than the page, which only proves that there is a next page. */
  get take(): number {
    return this.limit + 1;
  }

  /** The Prisma `where` clause of rows after the cursor in the list's order (nothing for the first page). */
  get where(): { OR?: ({ createdAt: { lt: Date } | { gt: Date } } | { createdAt: Date; id: { lt: string } | { gt: string } })[] } {
    if (!this.after) return {};
    const at = new Date(this.after.createdAt);
    const beyond = this.order === 'desc' ? 'lt' : 'gt';
    return { OR: [{ createdAt: { [beyond]: at } as { lt: Date } }, { createdAt: at, id: { [beyond]: this.after.id } as { lt: string } }] };
  }

  /** The Prisma `orderBy` of the list. */
  get orderBy(): [{ createdAt: KeysetOrder }, { id: KeysetOrder }] {
    return [{ createdAt: this.order }, { id: this.order }];
  }

  /**
   * The Prisma `findMany` arguments of this page over the rows matching `where`: the list's
   * filter, the rows after the cursor, the order and {@link take}.
   */
  findArgs<Where extends object>(where: Where) {
    return { where: { ...where, ...this.where }, orderBy: this.orderBy, take: this.take };
  }

  /**
   * The SQL condition of rows after the cursor, as a row comparison that an index on
   * `(..., <createdAt column>, <id column>)` answers without walking earlier rows; `bind` adds a
   * parameter and returns its placeholder. Undefined for the first page.
   */
  sqlAfter(bind: (value: unknown, cast: string) => string, columns: readonly [createdAt: string, id: string]): string | undefined {
    if (!this.after) return undefined;
    const beyond = this.order === 'desc' ? '<' : '>';
    return `(${columns[0]}, ${columns[1]}) ${beyond} (${bind(this.after.createdAt, '::timestamptz')}, ${bind(this.after.id, '::uuid')})`;
  }

  /** The cursor pointing after `row`. */
  cursorOf(row: NewestFirstRow): string {
    return encodeCursor(this.list, this.filters, [row.createdAt.toISOString(), row.id]);
  }

  /** The page of rows read with {@link take}. */
  page<Row extends NewestFirstRow, Item>(rows: Row[], toItem: (row: Row) => Item): Page<Item> {
    return toPage(rows, this.limit, (row) => this.cursorOf(row), toItem);
  }
}

/** Keyset paging newest first, as every list of the API reads by default. */
export class NewestFirst extends KeysetPage {
  constructor(
    list: string,
    filters: Record<string, unknown>,
    query: { readonly cursor?: string; readonly limit?: number },
    defaultLimit = DEFAULT_LIMIT,
  ) {
    super(list, filters, query, { order: 'desc', defaultLimit });
  }
}

function positionOf([createdAt, id]: (string | number)[]): NewestFirstPosition {
  if (typeof createdAt !== 'string' || !ISO_MILLIS.test(createdAt) || Number.isNaN(Date.parse(createdAt))) throw malformed();
  if (typeof id !== 'string' || !UUID.test(id)) throw malformed();
  return { createdAt, id };
}

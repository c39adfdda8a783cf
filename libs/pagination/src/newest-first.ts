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

/**
 * Keyset paging of a list newest first by `(createdAt, id)`, as every list of the API reads. One
 * list and one set of filters make one kind of cursor: a cursor of another list, made under other
 * filters, or holding anything but a millisecond timestamp and a UUID is `invalid_cursor`.
 */
export class NewestFirst {
  /** Where the page starts; undefined for the first page. */
  readonly after: NewestFirstPosition | undefined;
  readonly limit: number;

  constructor(
    private readonly list: string,
    private readonly filters: Record<string, unknown>,
    query: { readonly cursor?: string; readonly limit?: number },
    defaultLimit = DEFAULT_LIMIT,
  ) {
    this.after = query.cursor === undefined ? undefined : positionOf(decodeCursor(query.cursor, list, filters, 2));
    this.limit = query.limit ?? defaultLimit;
  }

  /** Rows to read: one more than the page, which only proves that there is a next page. */
  get take(): number {
    return this.limit + 1;
  }

  /** The Prisma `where` clause of rows after the cursor (nothing for the first page). */
  get where(): { OR?: ({ createdAt: { lt: Date } } | { createdAt: Date; id: { lt: string } })[] } {
    if (!this.after) return {};
    const at = new Date(this.after.createdAt);
    return { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: this.after.id } }] };
  }

  /** The Prisma `orderBy` of the list. */
  readonly orderBy = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

  /**
   * The SQL condition of rows after the cursor, as a row comparison that an index on
   * `(..., <createdAt column>, <id column>)` answers without walking earlier rows; `bind` adds a
   * parameter and returns its placeholder. Undefined for the first page.
   */
  sqlAfter(bind: (value: unknown, cast: string) => string, columns: readonly [createdAt: string, id: string]): string | undefined {
    if (!this.after) return undefined;
    return `(${columns[0]}, ${columns[1]}) < (${bind(this.after.createdAt, '::timestamptz')}, ${bind(this.after.id, '::uuid')})`;
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

function positionOf([createdAt, id]: (string | number)[]): NewestFirstPosition {
  if (typeof createdAt !== 'string' || !ISO_MILLIS.test(createdAt) || Number.isNaN(Date.parse(createdAt))) throw malformed();
  if (typeof id !== 'string' || !UUID.test(id)) throw malformed();
  return { createdAt, id };
}

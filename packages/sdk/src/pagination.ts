/** How many items `toArray()` collects at most when given no `limit` (the most Stripe's `autoPagingToArray` accepts). */
export const DEFAULT_TO_ARRAY_LIMIT = 10_000;

/** `toArray()` met more items than its `limit`. */
export class ListTooLongError extends Error {
  override readonly name = 'ListTooLongError';

  constructor(readonly limit: number) {
    super(
      `The list has more than ${limit} items: pass toArray({ limit }) with a higher limit, or walk it with \`for await (const item of list)\` or list.pages().`,
    );
  }
}

/** The envelope of every list: `nextCursor` is `null` on the last page. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A list: `for await (const item of list)` walks every item across pages; `pages()` walks the
 * pages; `page(cursor?)` fetches one page.
 */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  /** One page: the first without a cursor, else the one `cursor` (a previous `nextCursor`) points to. */
  page(cursor?: string): Promise<Page<T>> {
    return this.fetchPage(cursor);
  }

  /** Every page in order, following `nextCursor` until it is `null`. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Every item of every page, in one array, for a list known to be small. A list longer than
   * `limit` (default {@link DEFAULT_TO_ARRAY_LIMIT}) throws {@link ListTooLongError} instead of
   * filling memory: raise `limit`, or walk the list with `for await`.
   */
  async toArray(options: { limit?: number } = {}): Promise<T[]> {
    const limit = options.limit ?? DEFAULT_TO_ARRAY_LIMIT;
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= limit) throw new ListTooLongError(limit);
      items.push(item);
    }
    return items;
  }
}

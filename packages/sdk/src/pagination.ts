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

  /** Every item of every page, in one array (mind the size of the list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}

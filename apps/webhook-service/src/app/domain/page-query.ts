import type { PageQueryDto } from '@service/contracts';

/**
 * The page query of a webhook list as `NewestFirst` reads it: an empty `cursor` (`?cursor=`) asks
 * for the first page, as these lists have always answered, rather than being a malformed cursor.
 */
export function firstPageIfEmpty(query: PageQueryDto): PageQueryDto {
  return { cursor: query.cursor || undefined, limit: query.limit };
}

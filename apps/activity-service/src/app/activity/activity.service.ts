import { Injectable } from '@nestjs/common';
import type { ActivityPageDto, RequestContext } from '@service/contracts';
import { ACTIVITY_DEFAULT_LIMIT, parseLimit, toPage } from '@service/pagination';
import { toActivityItem } from './activity-item.js';
import { FeedReader } from './feed-reader.js';
import { feedCursor, type FeedInput, feedQuery, parseFeedFilters, readFeedCursor } from './feed-query.js';

/** The organization-wide feed, read from the projection only. */
@Injectable()
export class ActivityService {
  constructor(private readonly reader: FeedReader) {}

  async list(ctx: RequestContext, input: FeedInput & { limit?: string }): Promise<ActivityPageDto> {
    const limit = parseLimit(input.limit, ACTIVITY_DEFAULT_LIMIT);
    const filters = parseFeedFilters(input);
    const after = input.cursor === undefined ? undefined : readFeedCursor(input.cursor, filters);
    const rows = await this.reader.rows(feedQuery(ctx.orgId, filters, after, limit + 1));
    return toPage(rows, limit, (row) => feedCursor(filters, [row.timestamp.toISOString(), row.id]), toActivityItem);
  }
}

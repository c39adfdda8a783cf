import { Injectable } from '@nestjs/common';
import type { ActivityPageDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { toActivityItem } from './activity-item.js';
import { FeedReader } from './feed-reader.js';
import { feedPage, feedQuery, parseFeedFilters } from './feed-query.js';

/** The organization-wide feed, read from the projection only. */
@Injectable()
export class ActivityService {
  constructor(private readonly reader: FeedReader) {}

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.activity.feedList>): Promise<ActivityPageDto> {
    const filters = parseFeedFilters(input);
    const page = feedPage(filters, input);
    const rows = await this.reader.rows(feedQuery(ctx.orgId, filters, page));
    return page.page(
      rows.map((row) => ({ createdAt: row.timestamp, id: row.id, row })),
      ({ row }) => toActivityItem(row),
    );
  }
}

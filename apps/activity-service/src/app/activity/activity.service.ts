import { Injectable } from '@nestjs/common';
import type { ActivityPageDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { toActivityItem } from '../domain/activity-item.js';
import { feedPage, parseFeedFilters } from '../domain/feed-filters.js';
import { FeedRepository } from '../repositories/feed.repository.js';

/** The organization-wide feed, read from the projection only. */
@Injectable()
export class ActivityService {
  constructor(private readonly feed: FeedRepository) {}

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.activity.feedList>): Promise<ActivityPageDto> {
    const filters = parseFeedFilters(input);
    const page = feedPage(filters, input);
    const rows = await this.feed.read(ctx.orgId, filters, page);
    return page.page(
      rows.map((row) => ({ createdAt: new Date(row.timestamp_iso), id: row.id, row })),
      ({ row }) => toActivityItem(row),
    );
  }
}

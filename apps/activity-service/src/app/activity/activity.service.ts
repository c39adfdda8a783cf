import { Injectable } from '@nestjs/common';
import type { ActivityPageDto, RequestContext, RequestOf, SUBJECTS } from '@service/contracts';
import { SameAnswers } from '@service/sql';
import { toActivityItem } from '../domain/activity-item.js';
import { feedPage, parseFeedFilters } from '../domain/feed-filters.js';
import { FeedRepository } from '../repositories/feed.repository.js';

/** The organization-wide feed, read from the projection only. */
@Injectable()
export class ActivityService {
  /** The pages of a turn's identical reads, built once. */
  private readonly pages = new SameAnswers<ActivityPageDto>();

  constructor(private readonly feed: FeedRepository) {}

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.activity.feedList>): Promise<ActivityPageDto> {
    const filters = parseFeedFilters(input);
    const page = feedPage(filters, input);
    const rows = await this.feed.read(ctx.orgId, filters, page);
    // The same rows (the organization's) and the same question: the same page.
    return this.pages.of(rows, JSON.stringify(input), () =>
      page.page(
        rows.map((row) => ({ createdAt: new Date(row.timestamp_iso), id: row.id, row })),
        ({ row }) => toActivityItem(row),
      ),
    );
  }
}

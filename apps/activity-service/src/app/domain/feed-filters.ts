import { ACTIVITY_STATUSES, type ActivityQueryDto, type ActivityStatus, type ActivityType } from '@service/contracts';
import { ACTIVITY_DEFAULT_LIMIT, NewestFirst } from '@service/pagination';

const LIST = 'activity';

/** Filters in canonical form (sorted, de-duplicated, lower case), so equal filters make equal cursors. */
export interface FeedFilters {
  readonly walletIds?: readonly string[];
  readonly type?: ActivityType;
  /** Absent means every status (`status` omitted or `all`). */
  readonly statuses?: readonly ActivityStatus[];
}

/**
 * The filters of a feed request in canonical form. The gateway's `ActivityQueryDto` has checked
 * them (UUIDs, at most 50 wallets, a known type, `all` or a list of known statuses); equal
 * filters spelled differently must still make the same cursor.
 */
export function parseFeedFilters(input: Pick<ActivityQueryDto, 'walletId' | 'type' | 'status'>): FeedFilters {
  return { walletIds: walletIdsOf(input.walletId), type: input.type, statuses: statusesOf(input.status) };
}

function walletIdsOf(raw: ActivityQueryDto['walletId']): string[] | undefined {
  if (raw === undefined) return undefined;
  return [...new Set((Array.isArray(raw) ? raw : [raw]).map((id) => id.toLowerCase()))].sort();
}

function statusesOf(raw: string | undefined): ActivityStatus[] | undefined {
  if (raw === undefined || raw === 'all') return undefined;
  const chosen = new Set(raw.split(','));
  // Every status named is the same list as `all`, so both share cursors.
  return chosen.size === ACTIVITY_STATUSES.length ? undefined : ACTIVITY_STATUSES.filter((status) => chosen.has(status));
}

/** Newest-first paging of the feed under `filters`: cursors are bound to them. */
export function feedPage(filters: FeedFilters, query: Pick<ActivityQueryDto, 'cursor' | 'limit'>): NewestFirst {
  return new NewestFirst(
    LIST,
    { walletId: filters.walletIds, type: filters.type, status: filters.statuses },
    query,
    ACTIVITY_DEFAULT_LIMIT,
  );
}

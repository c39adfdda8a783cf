import { ACTIVITY_STATUSES, ACTIVITY_TYPES, type ActivityStatus, type ActivityType, MAX_ACTIVITY_WALLET_IDS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { decodeCursor, encodeCursor } from '@service/pagination';

const LIST = 'activity';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface FeedInput {
  walletId?: string | string[];
  type?: string;
  status?: string;
  cursor?: string;
}

/** Filters in canonical form (sorted, de-duplicated, lower case), so equal filters make equal cursors. */
export interface FeedFilters {
  readonly walletIds?: readonly string[];
  readonly type?: ActivityType;
  /** Absent means every status (`status` omitted or `all`). */
  readonly statuses?: readonly ActivityStatus[];
}

/** Keyset position: the timestamp and id of the last item of the previous page. */
export type FeedPosition = readonly [timestamp: string, id: string];

export function parseFeedFilters(input: FeedInput): FeedFilters {
  return { walletIds: walletIdsOf(input.walletId), type: typeOf(input.type), statuses: statusesOf(input.status) };
}

function walletIdsOf(raw: FeedInput['walletId']): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = (Array.isArray(raw) ? raw : [raw]).map((id) => (typeof id === 'string' ? id.toLowerCase() : ''));
  if (ids.length > MAX_ACTIVITY_WALLET_IDS || !ids.every((id) => UUID.test(id))) {
    throw new ServiceError('validation_error', `walletId must be a UUID, repeated at most ${MAX_ACTIVITY_WALLET_IDS} times.`);
  }
  return [...new Set(ids)].sort();
}

function typeOf(raw: string | undefined): ActivityType | undefined {
  if (raw === undefined) return undefined;
  if (!(ACTIVITY_TYPES as readonly string[]).includes(raw)) {
    throw new ServiceError('validation_error', `type must be one of ${ACTIVITY_TYPES.join(', ')}.`);
  }
  return raw as ActivityType;
}

function statusesOf(raw: string | undefined): ActivityStatus[] | undefined {
  if (raw === undefined || raw === 'all') return undefined;
  const statuses = typeof raw === 'string' ? raw.split(',') : [];
  if (statuses.length === 0 || !statuses.every((status) => (ACTIVITY_STATUSES as readonly string[]).includes(status))) {
    throw new ServiceError('validation_error', `status must be \`all\` or a comma-separated list of ${ACTIVITY_STATUSES.join(', ')}.`);
  }
  const chosen = new Set(statuses);
  // Every status named is the same list as `all`, so both share cursors.
  return chosen.size === ACTIVITY_STATUSES.length ? undefined : ACTIVITY_STATUSES.filter((status) => chosen.has(status));
}

function fingerprintOf(filters: FeedFilters): Record<string, unknown> {
  return { walletId: filters.walletIds, type: filters.type, status: filters.statuses };
}

export function feedCursor(filters: FeedFilters, position: FeedPosition): string {
  return encodeCursor(LIST, fingerprintOf(filters), [...position]);
}

/** The position a cursor holds; `invalid_cursor` unless it was made by this list under the same filters. */
export function readFeedCursor(cursor: string, filters: FeedFilters): FeedPosition {
  const [timestamp, id] = decodeCursor(cursor, LIST, fingerprintOf(filters), 2);
  if (typeof timestamp !== 'string' || !ISO_MILLIS.test(timestamp) || Number.isNaN(Date.parse(timestamp)) || typeof id !== 'string' || !UUID.test(id)) {
    throw new ServiceError('invalid_cursor', 'The cursor is malformed or belongs to another list or filter.');
  }
  return [timestamp, id];
}

export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
}

/**
 * One page of an organization's feed, newest first. The row comparison `(timestamp, id) < (...)`
 * is an index condition on (org_id, timestamp, id), so a deep page costs what the first does;
 * an OFFSET, or the same test spelled with OR, would walk every earlier row.
 */
export function feedQuery(orgId: string, filters: FeedFilters, after: FeedPosition | undefined, take: number): SqlQuery {
  const values: unknown[] = [orgId];
  const where = ['org_id = $1'];
  const bind = (value: unknown, cast = '') => `$${values.push(value)}${cast}`;
  if (filters.walletIds) where.push(`wallet_id = ANY(${bind(filters.walletIds, '::uuid[]')})`);
  if (filters.type) where.push(`type = ${bind(filters.type)}`);
  if (filters.statuses) where.push(`status = ANY(${bind(filters.statuses, '::text[]')})`);
  if (after) where.push(`("timestamp", id) < (${bind(after[0], '::timestamptz')}, ${bind(after[1], '::uuid')})`);
  return {
    text:
      'SELECT id, wallet_id, type, status, amount_usd, "timestamp", resource FROM activity_items ' +
      `WHERE ${where.join(' AND ')} ORDER BY "timestamp" DESC, id DESC LIMIT ${bind(take)}`,
    values,
  };
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import { PgPoolSql, type Query, TurnReads } from '@service/sql';
import type { NewestFirst } from '@service/pagination';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';
import type { FeedRow } from '../domain/activity-item.js';
import type { FeedFilters } from '../domain/feed-filters.js';

/**
 * The item's time as the API shows it (`Date.prototype.toISOString`'s form, milliseconds, UTC),
 * written by PostgreSQL: parsing a timestamptz into a Date and formatting it again was a tenth
 * of the service's CPU on a first page. Not named "timestamp": ORDER BY would sort by this text.
 */
const TIMESTAMP_ISO = `to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso`;

/**
 * One page of an organization's feed, newest first. The row comparison `(timestamp, id) < (...)`
 * is an index condition on (org_id, timestamp, id), so a deep page costs what the first does;
 * an OFFSET, or the same test spelled with OR, would walk every earlier row.
 */
export function feedQuery(orgId: string, filters: FeedFilters, page: NewestFirst): Query<FeedRow[]> {
  const values: unknown[] = [orgId];
  const where = ['org_id = $1'];
  const bind = (value: unknown, cast = '') => `$${values.push(value)}${cast}`;
  if (filters.walletIds) where.push(`wallet_id = ANY(${bind(filters.walletIds, '::uuid[]')})`);
  if (filters.type) where.push(`type = ${bind(filters.type)}`);
  if (filters.statuses) where.push(`status = ANY(${bind(filters.statuses, '::text[]')})`);
  const after = page.sqlAfter(bind, ['"timestamp"', 'id']);
  if (after) where.push(after);
  const text =
    `SELECT id, wallet_id, type, status, amount_usd, ${TIMESTAMP_ISO}, resource FROM activity_items ` +
    `WHERE ${where.join(' AND ')} ORDER BY "timestamp" DESC, id DESC LIMIT ${bind(page.take)}`;
  return { text, values, read: (rows) => rows as FeedRow[] };
}

/**
 * The feed's own read pool, bounded in time: connecting and each query give up after
 * ACTIVITY_QUERY_TIMEOUT_MS, so a database that is down, refuses us or hangs becomes a prompt
 * 503 `wallet_projection_unavailable` rather than the gateway's timeout. The pages asked for in one
 * event-loop turn go to PostgreSQL in one round trip (`TurnReads`): with a round trip per page, the
 * socket writes of `pg`'s queries would be a large share of the service's CPU under load
 * (measurements: tools/bench/README.md).
 */
@Injectable()
export class FeedRepository implements OnApplicationShutdown {
  private readonly sql: PgPoolSql;
  private readonly pages: TurnReads;

  constructor(
    @Inject(SERVICE_CONFIG) config: ActivityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.sql = new PgPoolSql({
      connectionString: config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      max: 10,
      timeoutMs: config.ACTIVITY_QUERY_TIMEOUT_MS,
      onIdleError: (error) => this.logger.warn({ err: error }, 'idle feed connection lost'),
    });
    this.pages = new TurnReads(this.sql);
  }

  /**
   * One page of the organization's feed under `filters`, as `page` reads it (one row more than the
   * page); the same array for the identical reads of a turn (read-only).
   */
  async read(orgId: string, filters: FeedFilters, page: NewestFirst): Promise<FeedRow[]> {
    try {
      return await this.pages.read(feedQuery(orgId, filters, page));
    } catch (error) {
      this.logger.warn({ err: error }, 'activity projection cannot be read');
      throw new ServiceError('wallet_projection_unavailable', 'The activity feed cannot be read right now. Retry shortly.');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sql.end();
  }
}

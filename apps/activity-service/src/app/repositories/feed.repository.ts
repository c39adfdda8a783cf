import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import type { NewestFirst } from '@service/pagination';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';
import type { FeedRow } from '../domain/activity-item.js';
import type { FeedFilters } from '../domain/feed-filters.js';

export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
}

/**
 * One page of an organization's feed, newest first. The row comparison `(timestamp, id) < (...)`
 * is an index condition on (org_id, timestamp, id), so a deep page costs what the first does;
 * an OFFSET, or the same test spelled with OR, would walk every earlier row.
 */
export function feedQuery(orgId: string, filters: FeedFilters, page: NewestFirst): SqlQuery {
  const values: unknown[] = [orgId];
  const where = ['org_id = $1'];
  const bind = (value: unknown, cast = '') => `$${values.push(value)}${cast}`;
  if (filters.walletIds) where.push(`wallet_id = ANY(${bind(filters.walletIds, '::uuid[]')})`);
  if (filters.type) where.push(`type = ${bind(filters.type)}`);
  if (filters.statuses) where.push(`status = ANY(${bind(filters.statuses, '::text[]')})`);
  const after = page.sqlAfter(bind, ['"timestamp"', 'id']);
  if (after) where.push(after);
  return {
    text:
      'SELECT id, wallet_id, type, status, amount_usd, "timestamp", resource FROM activity_items ' +
      `WHERE ${where.join(' AND ')} ORDER BY "timestamp" DESC, id DESC LIMIT ${bind(page.take)}`,
    values,
  };
}

/**
 * The feed's own read pool, bounded in time: connecting and each query give up after
 * ACTIVITY_QUERY_TIMEOUT_MS, so a database that is down, refuses us or hangs becomes a prompt
 * 503 `wallet_projection_unavailable` rather than the gateway's timeout.
 */
@Injectable()
export class FeedRepository implements OnApplicationShutdown {
  private readonly pool: pg.Pool;

  constructor(
    @Inject(SERVICE_CONFIG) config: ActivityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    const timeout = config.ACTIVITY_QUERY_TIMEOUT_MS;
    this.pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      options: `-c search_path="${config.DATABASE_SCHEMA}" -c statement_timeout=${timeout}`,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout + 500,
      max: 10,
    });
    // An idle connection the server drops must not take the process down; the next read reconnects.
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'idle feed connection lost'));
  }

  /** One page of the organization's feed under `filters`, as `page` reads it (one row more than the page). */
  async read(orgId: string, filters: FeedFilters, page: NewestFirst): Promise<FeedRow[]> {
    const query = feedQuery(orgId, filters, page);
    try {
      return (await this.pool.query<FeedRow>(query.text, query.values)).rows;
    } catch (error) {
      this.logger.warn({ err: error }, 'activity projection cannot be read');
      throw new ServiceError('wallet_projection_unavailable', 'The activity feed cannot be read right now. Retry shortly.');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

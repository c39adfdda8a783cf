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
  /** The prepared statement's name: one per query shape (filters present, first page or not). */
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/**
 * The item's time as the API shows it (`Date.prototype.toISOString`'s form, milliseconds, UTC),
 * written by PostgreSQL: parsing a timestamptz into a Date and formatting it again was a tenth
 * of the service's CPU on a first page. Not named "timestamp": ORDER BY would sort by this text.
 */
const TIMESTAMP_ISO = `to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp_iso`;

/** Statement names by query text; the shapes are few (three filters, a cursor or not). */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `activity_feed_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
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
  const text =
    `SELECT id, wallet_id, type, status, amount_usd, ${TIMESTAMP_ISO}, resource FROM activity_items ` +
    `WHERE ${where.join(' AND ')} ORDER BY "timestamp" DESC, id DESC LIMIT ${bind(page.take)}`;
  return { name: statementName(text), text, values };
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

  /**
   * One page of the organization's feed under `filters`, as `page` reads it (one row more than the
   * page), through a prepared statement per query shape: each connection parses and plans it once.
   */
  async read(orgId: string, filters: FeedFilters, page: NewestFirst): Promise<FeedRow[]> {
    try {
      return (await this.pool.query<FeedRow>(feedQuery(orgId, filters, page))).rows;
    } catch (error) {
      this.logger.warn({ err: error }, 'activity projection cannot be read');
      throw new ServiceError('wallet_projection_unavailable', 'The activity feed cannot be read right now. Retry shortly.');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

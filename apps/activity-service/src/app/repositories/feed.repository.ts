import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';
import type { FeedRow } from './activity-item.js';
import type { SqlQuery } from './feed-query.js';

/**
 * The feed's own read pool, bounded in time: connecting and each query give up after
 * ACTIVITY_QUERY_TIMEOUT_MS, so a database that is down, refuses us or hangs becomes a prompt
 * 503 `wallet_projection_unavailable` rather than the gateway's timeout.
 */
@Injectable()
export class FeedReader implements OnApplicationShutdown {
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

  async rows(query: SqlQuery): Promise<FeedRow[]> {
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

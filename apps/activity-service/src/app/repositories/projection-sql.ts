import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PgPoolSql } from '@service/sql';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';

/**
 * `PgPoolSql` (postgres.js) for the projection consumer: each batch of events is one short
 * transaction, and a Prisma interactive transaction would cost several extra round trips per
 * batch. Its statements are a fixed few, each prepared once per connection.
 */
@Injectable()
export class ProjectionSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: ActivityConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super({
      connectionString: config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      // The consumer retries what an idle connection's loss failed.
      onIdleError: (error) => logger.warn({ err: error }, 'idle projection connection lost'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

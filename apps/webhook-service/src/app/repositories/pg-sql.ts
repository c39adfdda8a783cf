import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PgPoolSql } from '@service/sql';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';

/** Connections per pool: two statements at a time (fan-outs, or a claim, a batch of records and a 410), with room to spare. */
const POOL_SIZE = 4;

/**
 * `PgPoolSql` (postgres.js) for the delivery path, with its fixed statements prepared once per
 * connection: Prisma costs extra round trips, which dominated the time per delivery. Same database and schema
 * as the Prisma client; models and migrations stay Prisma's.
 */
abstract class DeliveryPathSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(config: WebhookConfig, logger: Logger, pool: string) {
    super({
      connectionString: config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      max: POOL_SIZE,
      onIdleError: (error) => logger.warn({ err: error, pool }, 'idle webhook connection lost'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

/** The event consumer's connections (fan-out statements). */
@Injectable()
export class PgSql extends DeliveryPathSql {
  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super(config, logger, 'consumer');
  }
}

/**
 * The dispatcher's own connections (claims, attempt records), apart from the consumer's: while a
 * backlog of events is fanned out, the consumer keeps every connection of its pool busy, and
 * claims and records queued behind it held their delivery slots for tens of milliseconds.
 */
@Injectable()
export class DispatchSql extends DeliveryPathSql {
  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super(config, logger, 'dispatch');
  }
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PgPoolSql } from '@service/events';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WebhookConfig } from '../config.js';

/** Two fan-out statements at a time, with room to spare. */
const CONSUMER_POOL_SIZE = 4;

/**
 * Plain `pg` for the event consumer (fan-out statements): Prisma costs extra round trips, which
 * dominated the time per delivery. Same database and schema as the Prisma client; models and
 * migrations stay Prisma's.
 */
@Injectable()
export class PgSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig) {
    super({ connectionString: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, max: CONSUMER_POOL_SIZE, preparedStatements: 'consumer' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

/** One claim, one batch of records and a 410 at a time, with room to spare. */
const DISPATCH_POOL_SIZE = 4;

/**
 * The dispatcher's own connections (claims, attempt records), apart from the consumer's: while a
 * backlog of events is fanned out, the consumer keeps every connection of its pool busy, and
 * claims and records queued behind it held their delivery slots for tens of milliseconds.
 */
@Injectable()
export class DispatchSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig) {
    super({ connectionString: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, max: DISPATCH_POOL_SIZE, preparedStatements: 'dispatch' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

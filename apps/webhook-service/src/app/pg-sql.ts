import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PgPoolSql } from '@service/events';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { WebhookConfig } from '../config.js';

/**
 * Plain `pg` for the delivery hot path (consumer transactions, claims, attempt records): a Prisma
 * interactive transaction costs several extra round trips and dominated the time per delivery.
 * Same database and schema as the Prisma client; models and migrations stay Prisma's.
 */
@Injectable()
export class PgSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig) {
    super({ connectionString: config.DATABASE_URL, schema: config.DATABASE_SCHEMA });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PgPoolSql, type PgSqlExecutor, type PipelinedSqlExecutor } from '@service/sql';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WalletConfig } from '../../config.js';

/**
 * A transaction of {@link WalletSql}: what every repository function of the money path takes
 * (locking a wallet; writing its positions, deposits, rebalances, withdrawals, approvals or
 * remembered answers). A Prisma transaction does not fit it, so such a function runs on
 * `PgPoolSql` (postgres.js) whoever calls it.
 */
export type WalletTx = PipelinedSqlExecutor;

/** `PgPoolSql` in a transaction ({@link WalletTx}) or on the pool (`PgSqlExecutor` of @service/sql), for a read of the money path's rows. */
export type WalletDb = PgSqlExecutor;

/**
 * `PgPoolSql` (postgres.js, every value bound) for the routes users call most (a wallet read, an
 * allocation, a withdrawal), with their fixed statements prepared once per connection. Through Prisma each statement of an interactive
 * transaction goes through Prisma's query interpreter and transaction machinery, a large share of
 * the service's CPU on these routes (profiles: tools/bench/README.md), and every statement under
 * the wallet's row lock keeps the next request on that wallet waiting. Same database and schema
 * as the Prisma client; models and migrations stay Prisma's. A repository function runs on one of
 * the two, and says which in its signature: `WalletTx`/`WalletDb` here, Prisma's `Tx` (./db.ts).
 */
@Injectable()
export class WalletSql extends PgPoolSql implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: WalletConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super({
      connectionString: config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      max: config.WALLET_PG_POOL_SIZE,
      onIdleError: (error) => logger.warn({ err: error }, 'idle wallet connection lost'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

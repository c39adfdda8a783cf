import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { SqlExecutor, TransactionalSql } from '@service/events';
import { SERVICE_CONFIG } from '@service/service-runtime';
import pg from 'pg';
import type { WebhookConfig } from '../config.js';

/**
 * Plain `pg` for the delivery hot path (consumer transactions, claims, attempt records): a Prisma
 * interactive transaction costs several extra round trips and dominated the time per delivery.
 * Same database and schema as the Prisma client; models and migrations stay Prisma's.
 */
@Injectable()
export class PgSql implements TransactionalSql<SqlExecutor>, OnApplicationShutdown {
  private readonly pool: pg.Pool;

  constructor(@Inject(SERVICE_CONFIG) config: WebhookConfig) {
    this.pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      options: `-c search_path="${config.DATABASE_SCHEMA}"`,
      max: 10,
    });
  }

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    return (await this.pool.query(query, values)).rows as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return (await this.pool.query(query, values)).rowCount ?? 0;
  }

  async $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    const tx: SqlExecutor = {
      $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
      $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(query, values)).rowCount ?? 0,
    };
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}

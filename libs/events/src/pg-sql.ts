import pg from 'pg';
import type { SqlExecutor, TransactionalSql } from './sql.js';

/**
 * Starts a statement text that a pool with `preparedStatements` runs unnamed: a text built for
 * one call (a batch whose shape depends on its contents) would otherwise keep a prepared statement
 * on every connection for the pool's life. Harmless anywhere else (a comment).
 */
export const ONE_OFF_STATEMENT = '/* one-off */ ';

/**
 * The event plumbing's SQL slice over a plain `pg` pool. A Prisma interactive transaction costs
 * several extra round trips; hot paths that only run raw SQL (consumers, claims) use this instead,
 * on the same database and schema as the service's Prisma client.
 */
export class PgPoolSql implements TransactionalSql<SqlExecutor> {
  readonly pool: pg.Pool;
  private readonly names = new Map<string, string>();
  private readonly preparedPrefix: string | undefined;

  constructor(options: {
    connectionString: string;
    schema: string;
    max?: number;
    /**
     * Prepare each statement once per connection, under a name starting with this prefix, so
     * PostgreSQL parses and plans it once rather than on every call. Only for a fixed set of
     * statement texts (a hot path): every distinct text keeps its name for the pool's life, but
     * those starting with {@link ONE_OFF_STATEMENT}.
     */
    preparedStatements?: string;
  }) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      options: `-c search_path="${options.schema}"`,
      max: options.max ?? 10,
    });
    this.preparedPrefix = options.preparedStatements;
  }

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    return (await this.pool.query(this.statement(query, values))).rows as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return (await this.pool.query(this.statement(query, values))).rowCount ?? 0;
  }

  async $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    const tx: SqlExecutor = {
      $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(this.statement(query, values))).rows as T,
      $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(this.statement(query, values))).rowCount ?? 0,
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

  end(): Promise<void> {
    return this.pool.end();
  }

  private statement(text: string, values: unknown[]): pg.QueryConfig {
    if (this.preparedPrefix === undefined || text.startsWith(ONE_OFF_STATEMENT)) return { text, values };
    let name = this.names.get(text);
    if (name === undefined) {
      name = `${this.preparedPrefix}_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return { name, text, values };
  }
}

import pg from 'pg';

/** Where a pool connects and how it bounds its connections: one service's schema on its database. */
export interface PoolOptions {
  /** `postgresql://` URL of the database (a service's `DATABASE_URL`). */
  readonly connectionString: string;
  /** The schema every connection's `search_path` names (a service's `DATABASE_SCHEMA`), so raw SQL lands in it. */
  readonly schema: string;
  /** Most connections open at once (default 10). */
  readonly max?: number;
  /**
   * Bounds connecting and every statement in time (`statement_timeout` on each connection;
   * `pg` gives up on a query half a second later, for a server that no longer answers).
   */
  readonly timeoutMs?: number;
  /**
   * Called with the error of an idle connection the server drops (57P01 as its postmaster dies,
   * ECONNRESET). Without a listener that error is an unhandled 'error' event that ends the
   * process; the next query reconnects either way.
   */
  readonly onIdleError?: (error: Error) => void;
}

/**
 * The `pg` pool of one service's schema: every pool of a service (its Prisma client's driver
 * adapter, its `PgPoolSql`s) is built here.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const timeout = options.timeoutMs;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    options: `-c search_path="${options.schema}"` + (timeout === undefined ? '' : ` -c statement_timeout=${timeout}`),
    max: options.max ?? 10,
    ...(timeout === undefined ? {} : { connectionTimeoutMillis: timeout, query_timeout: timeout + 500 }),
  });
  if (options.onIdleError) pool.on('error', options.onIdleError);
  return pool;
}

import pg from 'pg';
import postgres from 'postgres';

/**
 * Where a pool connects and how it bounds its connections: one service's schema on its database,
 * taken alike by {@link createPool} (`pg`) and {@link createPostgresPool} (postgres.js).
 */
export interface PoolOptions {
  /** `postgresql://` URL of the database (a service's `DATABASE_URL`). */
  readonly connectionString: string;
  /** The schema every connection's `search_path` names (a service's `DATABASE_SCHEMA`), so raw SQL lands in it. */
  readonly schema: string;
  /** Most connections open at once (default 10). */
  readonly max?: number;
  /**
   * Bounds connecting, the wait for a pooled connection, and every statement in time
   * (`statement_timeout` on each connection; the client gives up on an answer half a second
   * later, for a server that no longer answers).
   */
  readonly timeoutMs?: number;
  /**
   * Called with the error of an idle connection the server drops (57P01 as its postmaster dies,
   * ECONNRESET; postgres.js's `CONNECTION_CLOSED`). Without a listener a `pg` pool's idle error is
   * an unhandled 'error' event that ends the process; the next query reconnects either way.
   */
  readonly onIdleError?: (error: Error) => void;
}

/**
 * The `pg` pool of one service's schema, for its Prisma client's driver adapter; its `PgPoolSql`s
 * run on {@link createPostgresPool}. Every pool of a service is built here.
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

/**
 * Parameters as `pg` sends them: text, or NULL, with no type of their own (PostgreSQL takes the
 * parameter's type from the statement, as it does for `pg`'s), so a statement text is prepared
 * once whatever values it runs with. Strings as they are; numbers, bigints and booleans as
 * `String` writes them; Dates as ISO-8601 instants; buffers as bytea hex; arrays as array
 * literals (for `$1::text[]`, `$1::uuid[]`); other objects as JSON.
 */
export function toParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An element of an array literal: quoted, with `"` and `\` escaped; NULL unquoted; a nested array as one. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  return `"${(toParameter(value) ?? '').replace(/[\\"]/g, '\\$&')}"`;
}

/** A value {@link toParameter} wrote: sent as it is, whatever type PostgreSQL describes the parameter as. */
const asWritten = (value: unknown): unknown => value;

/**
 * Rows read as `pg` reads them, with `pg`'s own parsers (pg-types): int2, int4, oid and floats as
 * numbers; int8 and numeric as strings; bool as booleans; date and timestamps as Dates; json and
 * jsonb parsed; bytea as Buffers; the built-in array types element by element (NULL elements
 * null); any other type as the text PostgreSQL sends. postgres.js's own serializers (which would
 * write a JSON string as a JSON string, or turn a text `true` into `f`) are replaced: every
 * parameter arrives written by {@link toParameter}.
 */
const PG_TYPES: Record<string, postgres.PostgresType> = (() => {
  const unparsed = pg.types.getTypeParser(25);
  const types: Record<string, postgres.PostgresType> = {};
  for (let oid = 1; oid < 5000; oid++) {
    const parse = pg.types.getTypeParser(oid, 'text');
    if (parse !== unparsed) types[`oid${oid}`] = { to: oid, from: [oid], serialize: asWritten, parse };
  }
  return types;
})();

/** One postgres.js client of a {@link PostgresPool}: at most one connection, used by one caller at a time. */
export type PostgresConnection = postgres.Sql;

/** A {@link PostgresPool} connection lent to one caller. */
export interface PooledConnection {
  readonly sql: PostgresConnection;
  /** How many times its connection closed: a transaction whose connection closed is over, whatever reconnects. */
  readonly closes: number;
  /** Whether its connection has answered since it was (re)opened: one that has not may still be connecting. */
  answered: boolean;
}

interface Slot extends PooledConnection {
  closes: number;
  lent: boolean;
  retired: boolean;
}

interface Waiter {
  resolve(slot: Slot): void;
  reject(error: unknown): void;
  timer?: NodeJS.Timeout;
}

/**
 * The postgres.js connections of one service's schema, with {@link createPool}'s options: every
 * connection's `search_path` is the schema, `timeoutMs` bounds connecting (`connect_timeout`),
 * each statement (`statement_timeout`) and the wait for a free connection (rejected as `pg-pool`
 * does, "timeout exceeded when trying to connect"), `onIdleError` hears of a connection that
 * closed while nobody used it (the next use reconnects). Each connection is a postgres.js client
 * of its own (`max: 1`), lent to one caller at a time: what a caller issues without awaiting in
 * between is pipelined on it, every statement bound (extended protocol), prepared once per
 * connection unless asked otherwise. postgres.js's own pool is not used: its `reserve()` does not
 * survive a connection the server ends (the next query on it throws outside any promise).
 * Connections are opened on demand, kept while idle, and lent most recently used first, so the
 * connections that have prepared a path's statements are the ones it gets.
 */
export class PostgresPool {
  private readonly slots: Slot[] = [];
  private readonly idle: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  private ending: Promise<void> | undefined;

  constructor(private readonly options: PoolOptions) {}

  /** A connection of the pool's, lent until {@link release}. */
  acquire(): Promise<PooledConnection> {
    if (this.ending) return Promise.reject(Object.assign(new Error('CONNECTION_ENDED: the pool has ended'), { code: 'CONNECTION_ENDED' }));
    const slot = this.idle.pop() ?? (this.slots.length < (this.options.max ?? 10) ? this.open() : undefined);
    if (slot) {
      slot.lent = true;
      return Promise.resolve(slot);
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      const timeout = this.options.timeoutMs;
      if (timeout !== undefined) {
        waiter.timer = setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new Error('timeout exceeded when trying to connect'));
        }, timeout);
      }
      this.waiters.push(waiter);
    });
  }

  /** Back to the pool; a `broken` connection (its session in an unknown state) is closed and replaced when needed. */
  release(connection: PooledConnection, broken = false): void {
    let slot = connection as Slot;
    if (broken) {
      this.retire(slot);
      if (this.waiters.length === 0 || this.ending) return;
      slot = this.open();
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      clearTimeout(waiter.timer);
      slot.lent = true;
      waiter.resolve(slot);
      return;
    }
    slot.lent = false;
    this.idle.push(slot);
  }

  /** Closes every connection once the statements in flight have answered; what waits for one fails. */
  end(): Promise<void> {
    this.ending ??= (async () => {
      for (const waiter of this.waiters.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.reject(Object.assign(new Error('CONNECTION_ENDED: the pool has ended'), { code: 'CONNECTION_ENDED' }));
      }
      await Promise.all(this.slots.map((slot) => slot.sql.end()));
    })();
    return this.ending;
  }

  private open(): Slot {
    const timeout = this.options.timeoutMs;
    const onIdleError = this.options.onIdleError;
    const slot: Slot = {
      closes: 0,
      answered: false,
      lent: false,
      retired: false,
      sql: postgres(this.options.connectionString, {
        max: 1,
        connection: { search_path: `"${this.options.schema}"`, ...(timeout === undefined ? {} : { statement_timeout: timeout }) },
        ...(timeout === undefined ? {} : { connect_timeout: timeout / 1000 }),
        // As `pg`'s: connections stay open while idle, live as long as the server keeps them, and
        // reconnect at once when used again.
        idle_timeout: undefined,
        max_lifetime: null,
        backoff: () => 0,
        types: PG_TYPES,
        // pg-types parses the built-in array types; others stay text, as with `pg`.
        fetch_types: false,
        // Notices ("relation already exists, skipping") are not errors; postgres.js would print them.
        onnotice: () => undefined,
        onclose: () => {
          slot.closes += 1;
          slot.answered = false;
          if (!slot.lent && !slot.retired && !this.ending)
            onIdleError?.(Object.assign(new Error('CONNECTION_CLOSED: an idle connection was closed'), { code: 'CONNECTION_CLOSED' }));
        },
      }),
    };
    this.slots.push(slot);
    return slot;
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.sql.end({ timeout: 0 }).catch(() => undefined);
  }
}

/** A {@link PostgresPool} of one service's schema: with {@link createPool}, the only place a service builds a pool. */
export function createPostgresPool(options: PoolOptions): PostgresPool {
  return new PostgresPool(options);
}

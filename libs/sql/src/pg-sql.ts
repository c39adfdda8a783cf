import { channel } from 'node:diagnostics_channel';
import { unavailabilityOf } from '@service/errors';
import { inStatementSpan } from '@service/tracing';
import type postgres from 'postgres';
import {
  createPostgresPool,
  type PooledConnection,
  type PoolOptions,
  type PostgresConnection,
  type PostgresPool,
  toParameter,
} from './pool.js';
import type { PipelinedSqlExecutor, Statement, TransactionalSql } from './sql.js';

/**
 * Starts a statement text that `PgPoolSql` runs unnamed rather than prepared: a text built for one
 * call (a batch whose shape depends on its contents) would otherwise keep a prepared statement on
 * every connection for the connection's life. Harmless anywhere else (a comment). Such a text
 * with parameters costs one more round trip on every run (postgres.js describes it first).
 */
export const ONE_OFF_STATEMENT = '/* one-off */ ';

/**
 * Where `PgPoolSql` reports each round trip it sends (the number of statements it carries), for a
 * spec that holds a path to a number of them (`countRoundTrips` of `@service/testing`).
 */
export const ROUND_TRIP_CHANNEL = 'service.sql.round-trip';
const roundTrips = channel(ROUND_TRIP_CHANNEL);

/** One statement's rows and how many rows it affected. */
type Result = postgres.RowList<postgres.Row[]>;

/**
 * The `SqlExecutor` slice over postgres.js connections ({@link createPostgresPool}): every value
 * is a bound parameter (extended protocol), never SQL text, and statements that need no answer in
 * between are pipelined on one connection. A Prisma interactive transaction costs several extra
 * round trips; hot paths that only run raw SQL (consumers, claims, the money path) use this
 * instead, on the same database and schema as the service's Prisma client.
 *
 * Each statement text is prepared once per connection (PostgreSQL parses and plans it once), but
 * those starting with {@link ONE_OFF_STATEMENT}; preparing costs one more round trip the first
 * time a connection meets a text with parameters (postgres.js describes it first).
 */
export class PgPoolSql implements TransactionalSql<PipelinedSqlExecutor> {
  private readonly pool: PostgresPool;
  /** `timeoutMs`: how long connecting may take, and each answer half a second more. */
  readonly timeoutMs: number | undefined;

  constructor(options: PoolOptions) {
    this.pool = createPostgresPool(options);
    this.timeoutMs = options.timeoutMs;
  }

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    const [result] = await this.alone([{ text: query, values }], query);
    return result as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    const [result] = await this.alone([{ text: query, values }], query);
    return result?.count ?? 0;
  }

  /**
   * Runs `fn` in a transaction on one connection. BEGIN goes with the first statement and COMMIT
   * with the writes deferred to it ({@link PipelinedSqlExecutor}), so a transaction of a lock, a
   * read and a write costs two round trips with `$queryBatch`, three without.
   */
  async $transaction<R>(fn: (tx: PipelinedSqlExecutor) => Promise<R>): Promise<R> {
    const connection = await this.pool.acquire();
    const tx = new PgTransaction(connection, this);
    let broken = false;
    try {
      const result = await fn(tx);
      await tx.commit();
      return result;
    } catch (error) {
      broken = lostSession(error);
      if (!broken) {
        await tx.rollback().catch(() => {
          broken = true;
        });
      }
      throw error;
    } finally {
      this.pool.release(connection, broken);
    }
  }

  /**
   * The statements in one round trip on one connection, outside a transaction: one transaction in
   * which each statement reads what was committed when it starts (READ COMMITTED), committed when
   * it answers; each one's rows. One failing statement fails them all.
   */
  async $queryBatch(statements: readonly Statement[]): Promise<unknown[][]> {
    if (statements.length === 0) return [];
    if (statements.length === 1) return this.alone(statements, statements[0]?.text ?? '');
    const results = await this.alone([BEGIN, ...statements, COMMIT], statements[0]?.text ?? '');
    return results.slice(1, -1);
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  /** The statements in one round trip on a connection of the pool's, traced as one span named after `name`. */
  private async alone(statements: readonly Statement[], name: string): Promise<Result[]> {
    const connection = await this.pool.acquire();
    let broken = false;
    try {
      return await inStatementSpan(
        name,
        () => pipeline(connection, statements, this.timeoutMs),
        () => statements.map((statement) => statement.text).join(';\n'),
      );
    } catch (error) {
      broken = lostSession(error);
      throw error;
    } finally {
      this.pool.release(connection, broken);
    }
  }
}

/**
 * The statements pipelined on `sql` (issued in one turn, so postgres.js writes them together);
 * each one's result, or the first failure (a statement after a failed one in a transaction
 * fails as well, "current transaction is aborted").
 *
 * When the session is lost, the statements postgres.js has not sent yet (queued behind a
 * statement it describes first, or behind connecting) are cancelled at once: postgres.js would
 * send them on the next connection it opens, outside the transaction (a claim committed without
 * the rest of its transaction).
 */
async function pipeline(connection: PooledConnection, statements: readonly Statement[], timeoutMs: number | undefined): Promise<Result[]> {
  const queries = statements.map((statement) => query(connection.sql, statement));
  if (roundTrips.hasSubscribers) roundTrips.publish(statements.length);
  const cancelUnsent = (error: unknown): void => {
    if (!lostSession(error)) return;
    // `state` is set when postgres.js writes a query to a connection; a query without one waits.
    // A private detail of postgres.js (pinned exactly): postgres-internals.int.spec.ts fails when it changes.
    for (const pending of queries) if ((pending as unknown as { state: unknown }).state === null) pending.cancel();
  };
  const settled = Promise.allSettled(
    queries.map((pending) =>
      pending.execute().then(undefined, (error: unknown) => {
        cancelUnsent(error);
        throw error;
      }),
    ),
  );
  const outcomes = await (timeoutMs === undefined ? settled : answered(settled, connection, timeoutMs));
  const results: Result[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
    results.push(outcome.value);
  }
  connection.answered = true;
  return results;
}

/** `statement` as a postgres.js query, not yet sent: prepared unless one-off; BEGIN and the like as simple queries. */
function query(sql: PostgresConnection, { text, values }: Statement): postgres.PendingQuery<postgres.Row[]> {
  if (values.length === 0 && SIMPLE.has(text)) return sql.unsafe(text);
  if (text.startsWith(ONE_OFF_STATEMENT)) return sql.unsafe(text, values.map(toParameter), { prepare: false });
  // `simple: false` prepares a text without parameters too (postgres.js would send it as a simple query).
  return sql.unsafe(text, values.map(toParameter), { prepare: true, simple: false } as postgres.UnsafeQueryOptions);
}

const BEGIN: Statement = { text: 'BEGIN', values: [] };
const COMMIT: Statement = { text: 'COMMIT', values: [] };
const ROLLBACK: Statement = { text: 'ROLLBACK', values: [] };
const SIMPLE = new Set([BEGIN.text, COMMIT.text, ROLLBACK.text]);

/**
 * `outcome`, or a failure once the server took too long: `timeoutMs` + 500 for an answer (a server
 * that no longer answers, `QUERY_TIMEOUT`, as `pg`'s "Query read timeout"), `timeoutMs` more on a
 * connection that may still be connecting (`CONNECT_TIMEOUT`: postgres.js's own `connect_timeout`
 * does not bound a connection the network never answers).
 */
async function answered<T>(outcome: Promise<T>, connection: PooledConnection, timeoutMs: number): Promise<T> {
  const connecting = !connection.answered;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const code = connecting ? 'CONNECT_TIMEOUT' : 'QUERY_TIMEOUT';
    const message = connecting ? 'CONNECT_TIMEOUT: no connection in time' : 'Query read timeout';
    timer = setTimeout(() => reject(Object.assign(new Error(message), { code })), (connecting ? 2 * timeoutMs : timeoutMs) + 500);
  });
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What a repository function that runs on postgres.js takes: a {@link PgPoolSql} (on its pool) or
 * one of its transactions. A Prisma client fits `SqlExecutor` but not this, so such a function runs
 * on `PgPoolSql` whoever calls it: its driver is a fact of its signature, not of its caller.
 */
export type PgSqlExecutor = PgPoolSql | PipelinedSqlExecutor;

/**
 * Errors after which the connection's session is gone or unknown (closed, refused, timed out,
 * ended by the server: what `@service/errors` answers 503 for, and our own answer deadline), so
 * neither ROLLBACK nor the connection is worth trying again.
 */
function lostSession(error: unknown): boolean {
  return unavailabilityOf(error) !== undefined || (error as { code?: unknown } | null)?.code === 'QUERY_TIMEOUT';
}

/**
 * One transaction on one connection. Statements wait in `pending` for the next round trip
 * (BEGIN first), which pipelines them with its own.
 */
class PgTransaction implements PipelinedSqlExecutor {
  private sent = false;
  private pending: Statement[] = [BEGIN];
  /** The connection's `closes` when BEGIN went: a connection that closed since has lost the transaction. */
  private closesAtBegin = 0;

  constructor(
    private readonly connection: PooledConnection,
    private readonly owner: PgPoolSql,
  ) {}

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    const [result] = await this.roundTrip([{ text: query, values }]);
    return result as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    const [result] = await this.roundTrip([{ text: query, values }]);
    return result?.count ?? 0;
  }

  async $queryBatch(statements: readonly Statement[]): Promise<unknown[][]> {
    if (statements.length === 0) return [];
    return this.roundTrip(statements);
  }

  $executeDeferred(query: string, ...values: unknown[]): void {
    this.pending.push({ text: query, values });
  }

  /** Sends what is pending with COMMIT; nothing when the work sent no statement at all. */
  async commit(): Promise<void> {
    if (!this.sent && this.pending.length === 1) return;
    await this.roundTrip([COMMIT]);
  }

  async rollback(): Promise<void> {
    this.pending = [];
    if (this.sent && this.connection.closes === this.closesAtBegin) await pipeline(this.connection, [ROLLBACK], this.owner.timeoutMs);
  }

  /**
   * The pending statements and `statements` in one round trip; the results of `statements`.
   * Traced as one database span named after the first of `statements`, with the text of every
   * statement it carries.
   */
  private roundTrip(statements: readonly Statement[]): Promise<Result[]> {
    const all = [...this.pending, ...statements];
    this.pending = [];
    return inStatementSpan(
      statements[0]?.text ?? '',
      async () => {
        if (!this.sent) {
          this.sent = true;
          this.closesAtBegin = this.connection.closes;
        } else if (this.connection.closes !== this.closesAtBegin) {
          // The next statement would reconnect and run outside the transaction.
          throw Object.assign(new Error('CONNECTION_CLOSED: the connection closed during the transaction'), { code: 'CONNECTION_CLOSED' });
        }
        return (await pipeline(this.connection, all, this.owner.timeoutMs)).slice(-statements.length);
      },
      () => all.map((statement) => statement.text).join(';\n'),
    );
  }
}

import { inStatementSpan } from '@service/tracing';
import pg from 'pg';
import { createPool, type PoolOptions } from './pool.js';
import type { PipelinedSqlExecutor, Statement, TransactionalSql } from './sql.js';

/**
 * Starts a statement text that a pool with `preparedStatements` runs unnamed: a text built for
 * one call (a batch whose shape depends on its contents) would otherwise keep a prepared statement
 * on every connection for the pool's life. Harmless anywhere else (a comment).
 */
export const ONE_OFF_STATEMENT = '/* one-off */ ';

/**
 * `value` as an SQL literal for a statement sent as text, or undefined for a value only the
 * extended protocol's binding takes (objects, buffers, nested arrays, non-finite numbers).
 * Strings go through `pg.escapeLiteral`; a literal is untyped until PostgreSQL coerces it to the
 * parameter's or cast's type, as a bound text value is. Dates are written as ISO-8601 instants
 * (every timestamp column of ours is `timestamptz`).
 */
export function sqlLiteral(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) {
    const items = value.map(arrayItem);
    return items.includes(undefined) ? undefined : pg.escapeLiteral(`{${items.join(',')}}`);
  }
  const text = scalarText(value);
  return text === undefined ? undefined : pg.escapeLiteral(text);
}

function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
  }
}

/** An element of an array literal: quoted, with `"` and `\` escaped; NULL unquoted. */
function arrayItem(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  const text = scalarText(value);
  return text === undefined ? undefined : `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The `SqlExecutor` slice over a plain `pg` pool ({@link createPool}). A Prisma interactive
 * transaction costs several extra round trips; hot paths that only run raw SQL (consumers, claims)
 * use this instead, on the same database and schema as the service's Prisma client.
 */
export class PgPoolSql implements TransactionalSql<PipelinedSqlExecutor> {
  readonly pool: pg.Pool;
  private readonly names = new Map<string, string>();
  /** SQL-level (`PREPARE`) names, apart from those `pg` gives the extended protocol's statements. */
  private readonly sqlNames = new Map<string, string>();
  private readonly preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  private readonly preparedPrefix: string | undefined;

  constructor(
    options: PoolOptions & {
      /**
       * Prepare each statement once per connection, under a name starting with this prefix, so
       * PostgreSQL parses and plans it once rather than on every call. Only for a fixed set of
       * statement texts (a hot path): every distinct text keeps its name for the pool's life, but
       * those starting with {@link ONE_OFF_STATEMENT}.
       */
      preparedStatements?: string;
    },
  ) {
    this.pool = createPool(options);
    this.preparedPrefix = options.preparedStatements;
  }

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    return (await inStatementSpan(query, () => this.pool.query(this.statement(query, values)))).rows as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return (await inStatementSpan(query, () => this.pool.query(this.statement(query, values)))).rowCount ?? 0;
  }

  /**
   * Runs `fn` in a transaction on one connection. BEGIN goes with the first statement and COMMIT
   * with the writes deferred to it ({@link PipelinedSqlExecutor}), so a transaction of a lock, a
   * read and a write costs three round trips rather than five, two with `$queryBatch`.
   */
  async $transaction<R>(fn: (tx: PipelinedSqlExecutor) => Promise<R>): Promise<R> {
    const client = await this.checkOut();
    const tx = new PgTransaction(client, this);
    let broken = false;
    try {
      const result = await fn(tx);
      await tx.commit();
      return result;
    } catch (error) {
      await tx.rollback().catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A round trip that failed while preparing statements leaves unknown which it prepared.
      checkIn(client, broken || tx.unsure);
    }
  }

  /**
   * The statements in one round trip on one connection, outside a transaction: one implicit
   * transaction in which each statement reads what was committed when it starts (READ
   * COMMITTED); each one's rows. One failing statement fails them all.
   */
  async $queryBatch(statements: readonly Statement[]): Promise<unknown[][]> {
    const client = await this.checkOut();
    const batch = new PgTransaction(client, this, []);
    try {
      return await batch.$queryBatch(statements);
    } finally {
      checkIn(client, batch.unsure);
    }
  }

  /**
   * A pooled connection, listened to while checked out: the pool stops listening for its errors
   * then, and the error of a connection the server drops (its postmaster killed: ECONNRESET, or
   * the socket's end after a FATAL) would be an unhandled 'error' event that ends the process.
   * The same error fails the statement in flight, which is where the caller sees it.
   */
  private async checkOut(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    client.on('error', ignoreCheckedOutError);
    return client;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  /** The statement for `pg`'s extended protocol: named (prepared) on a hot path, else unnamed. */
  statement(text: string, values: readonly unknown[]): pg.QueryConfig {
    if (!this.prepares(text)) return { text, values: [...values] };
    let name = this.names.get(text);
    if (name === undefined) {
      name = `${this.preparedPrefix}_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return { name, text, values: [...values] };
  }

  /**
   * The statements as one simple query (a round trip of several): a statement without values as
   * it is; else `EXECUTE` of its SQL-level prepared statement with the values as literals, after
   * the `PREPARE` this connection still needs (`prepares`: how many the query carries).
   * Undefined, and nothing registered, when one of them can only be bound (a one-off text, a pool
   * without prepared statements, a value no literal writes).
   */
  simpleQuery(client: pg.PoolClient, statements: readonly Statement[]): { text: string; prepares: number } | undefined {
    const literals: (string | undefined)[][] = [];
    for (const { text, values } of statements) {
      const written = values.map(sqlLiteral);
      if (values.length > 0 && (!this.prepares(text) || written.includes(undefined))) return undefined;
      literals.push(written);
    }
    let prepared = this.preparedOn.get(client);
    if (!prepared) this.preparedOn.set(client, (prepared = new Set()));
    const prepare: string[] = [];
    const texts = statements.map(({ text, values }, index) => {
      if (values.length === 0) return text;
      let name = this.sqlNames.get(text);
      if (name === undefined) {
        name = `${this.preparedPrefix}_q${this.sqlNames.size + 1}`;
        this.sqlNames.set(text, name);
      }
      if (!prepared.has(name)) {
        prepared.add(name);
        prepare.push(`PREPARE ${name} AS ${text}`);
      }
      return `EXECUTE ${name}(${literals[index]?.join(', ')})`;
    });
    return { text: [...prepare, ...texts].join(';\n'), prepares: prepare.length };
  }

  private prepares(text: string): boolean {
    return this.preparedPrefix !== undefined && !text.startsWith(ONE_OFF_STATEMENT);
  }
}

/** The error reaches the statement in flight; listening only keeps it from ending the process. */
const ignoreCheckedOutError = (): void => undefined;

/** Back to the pool, which listens for its errors again; dropped when `destroy` (or when the connection broke). */
function checkIn(client: pg.PoolClient, destroy: boolean): void {
  client.removeListener('error', ignoreCheckedOutError);
  client.release(destroy);
}

const BEGIN: Statement = { text: 'BEGIN', values: [] };
const COMMIT: Statement = { text: 'COMMIT', values: [] };

/**
 * One transaction on one connection. Statements wait in `pending` for the next round trip
 * (BEGIN first), which sends them with its own as one simple query when every one of them can be
 * written as text, else one by one through the extended protocol.
 */
class PgTransaction implements PipelinedSqlExecutor {
  private sent = false;
  /** A round trip that carried `PREPARE`s failed: which of them ran is unknown. */
  unsure = false;

  /** `pending`: what the first round trip sends first (BEGIN; nothing for a batch outside a transaction). */
  constructor(
    private readonly client: pg.PoolClient,
    private readonly sql: PgPoolSql,
    private pending: Statement[] = [BEGIN],
  ) {}

  async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
    const [result] = await this.roundTrip([{ text: query, values }]);
    return result?.rows as T;
  }

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    const [result] = await this.roundTrip([{ text: query, values }]);
    return result?.rowCount ?? 0;
  }

  async $queryBatch(statements: readonly Statement[]): Promise<unknown[][]> {
    if (statements.length === 0) return [];
    return (await this.roundTrip(statements)).map((result) => result.rows);
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
    if (this.sent) await this.client.query('ROLLBACK');
  }

  /**
   * The pending statements and `statements` in one round trip if it can be; the results of
   * `statements`. Traced as one database span named after the first of `statements`, with the
   * text of every statement it carries.
   */
  private roundTrip(statements: readonly Statement[]): Promise<pg.QueryResult[]> {
    const all = [...this.pending, ...statements];
    this.pending = [];
    this.sent = true;
    return inStatementSpan(
      statements[0]?.text ?? '',
      () => this.send(all, statements.length),
      () => all.map((statement) => statement.text).join(';\n'),
    );
  }

  private async send(all: readonly Statement[], answered: number): Promise<pg.QueryResult[]> {
    const query = this.sql.simpleQuery(this.client, all);
    if (query) {
      try {
        const results: pg.QueryResult | pg.QueryResult[] = await this.client.query(query.text);
        return (Array.isArray(results) ? results : [results]).slice(-answered);
      } catch (error) {
        if (query.prepares > 0) this.unsure = true;
        throw error;
      }
    }
    const results: pg.QueryResult[] = [];
    for (const statement of all) {
      results.push(await (statement.values.length === 0 ? this.client.query(statement.text) : this.client.query(this.sql.statement(statement.text, statement.values))));
    }
    return results.slice(-answered);
  }
}

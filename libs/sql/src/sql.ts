/**
 * What runs raw SQL: the slice of a Prisma client that every service's generated client fits (so
 * code written against it depends on no service's schema), and what `PgPoolSql` implements over postgres.js.
 */
export interface SqlExecutor {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** One SQL statement's text with its values (`$1`, `$2`, ... in the text). */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * What a `PgPoolSql` transaction hands its work: statements that need no answer in between
 * share a round trip. Each round trip wakes PostgreSQL and this process once; on a busy machine
 * that, not the statements, is most of a short transaction's cost.
 */
export interface PipelinedSqlExecutor extends SqlExecutor {
  /**
   * Runs the statements one after the other in one round trip; each one's rows. Under READ
   * COMMITTED each statement reads what was committed when it starts, so a read that follows a
   * row lock in the same batch sees everything the lock's previous holder committed.
   */
  $queryBatch(statements: readonly Statement[]): Promise<unknown[][]>;
  /**
   * Runs the statement at the start of the transaction's next round trip (the next statement, or
   * the COMMIT), for a write whose answer nobody reads; the statements after it see its effects.
   * If it fails, that round trip fails, and with it the transaction.
   */
  $executeDeferred(query: string, ...values: unknown[]): void;
}

/** A statement and how its rows are read. */
export interface Query<T> extends Statement {
  read(rows: unknown[]): T;
}

/** Runs `query`; what it reads. */
export async function runQuery<T>(tx: SqlExecutor, query: Query<T>): Promise<T> {
  return query.read(await tx.$queryRawUnsafe<unknown[]>(query.text, ...query.values));
}

/**
 * Runs the queries one after the other, in one round trip when `tx` pipelines (see
 * {@link PipelinedSqlExecutor.$queryBatch} for what each one sees); what each reads.
 */
export async function runQueries<const Q extends readonly Query<unknown>[]>(tx: SqlExecutor, queries: Q): Promise<Reads<Q>> {
  const rows = isPipelined(tx) ? await tx.$queryBatch(queries) : await inTurn(tx, queries);
  return queries.map((query, index) => query.read(rows[index] ?? [])) as Reads<Q>;
}

/** What each of the queries `Q` reads, in order. */
type Reads<Q extends readonly Query<unknown>[]> = { -readonly [K in keyof Q]: Q[K] extends Query<infer T> ? T : never };

async function inTurn(tx: SqlExecutor, queries: readonly Statement[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (const query of queries) rows.push(await tx.$queryRawUnsafe<unknown[]>(query.text, ...query.values));
  return rows;
}

/**
 * Runs a write whose answer nobody reads: with the next round trip where `tx` pipelines
 * ({@link PipelinedSqlExecutor.$executeDeferred}: a failure fails that round trip and the
 * transaction), else now.
 */
export async function executeWrite(tx: SqlExecutor, query: string, ...values: unknown[]): Promise<void> {
  if (isPipelined(tx)) tx.$executeDeferred(query, ...values);
  else await tx.$executeRawUnsafe(query, ...values);
}

/** Whether `tx` shares round trips ({@link PipelinedSqlExecutor}). */
export function isPipelined(tx: SqlExecutor): tx is PipelinedSqlExecutor {
  return typeof (tx as Partial<PipelinedSqlExecutor>).$executeDeferred === 'function';
}

export interface TransactionalSql<Tx extends SqlExecutor = SqlExecutor> extends SqlExecutor {
  $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R>;
}

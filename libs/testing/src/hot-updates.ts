/** What runs a statement in a transaction (`SqlExecutor` of @service/sql has it). */
interface StatementRunner {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** Rows of a table updated, and how many of those updates were HOT (wrote no index entry). */
export interface TableUpdates {
  readonly updated: number;
  readonly hot: number;
}

/**
 * The updates `work` makes to `table` inside the transaction of `tx`, from PostgreSQL's counts of
 * this backend. Those also hold the backend's earlier transactions not yet sent to the statistics,
 * so this is the difference across `work`; the transaction must stay open around it.
 */
export async function updatesDuring(tx: StatementRunner, table: string, work: () => Promise<unknown>): Promise<TableUpdates> {
  const counts = async () => {
    const [row] = await tx.$queryRawUnsafe<TableUpdates[]>(
      `SELECT pg_stat_get_xact_tuples_updated($1::regclass)::int AS updated, pg_stat_get_xact_tuples_hot_updated($1::regclass)::int AS hot`,
      table,
    );
    if (!row) throw new Error(`no counts for ${table}`);
    return row;
  };
  const before = await counts();
  await work();
  const after = await counts();
  return { updated: after.updated - before.updated, hot: after.hot - before.hot };
}

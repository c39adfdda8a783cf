/**
 * The slice of a Prisma client the event plumbing needs. Every service's generated client fits
 * it, so this lib depends on no service's schema, only on the two tables each schema carries:
 * `outbox_events` and `processed_events`.
 */
export interface SqlExecutor {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface TransactionalSql<Tx extends SqlExecutor = SqlExecutor> extends SqlExecutor {
  $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R>;
}

export interface EventLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

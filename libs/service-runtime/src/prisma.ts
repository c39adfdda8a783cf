import { PrismaPg } from '@prisma/adapter-pg';
import { createPool } from '@service/sql';
import { inStatementSpan, tracingEnabled } from '@service/tracing';

/**
 * The driver adapter for one service's schema, over a pool of `createPool` (ended when the client
 * disconnects). Model queries are qualified by `schema`; the pool's search path makes raw SQL
 * (outbox, processed events) land in the same schema. With tracing on, every statement run inside
 * a traced operation (a request's handler span) gets a span of its own.
 */
export function prismaAdapter(databaseUrl: string, schema: string, poolSize = 10): PrismaPg {
  const adapter = new PrismaPg(createPool({ connectionString: databaseUrl, schema, max: poolSize }), { schema, disposeExternalPool: true });
  return tracingEnabled() ? traceStatements(adapter) : adapter;
}

interface SqlQuery {
  readonly sql: string;
}

/** Methods whose result is a connection or transaction whose statements are traced too. */
const OPENERS = new Set<PropertyKey>(['connect', 'startTransaction']);
const STATEMENTS = new Set<PropertyKey>(['queryRaw', 'executeRaw']);

/**
 * Wraps a driver adapter factory, its connections and their transactions: `queryRaw` and
 * `executeRaw` run in a `db <operation>` client span (PostgreSQL, the statement text).
 */
function traceStatements<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (OPENERS.has(key)) return async (...args: unknown[]) => traceStatements((await method.apply(object, args)) as object);
      if (STATEMENTS.has(key)) {
        return (query: SqlQuery) => inStatementSpan(query.sql, () => method.call(object, query) as Promise<unknown>);
      }
      return method.bind(object);
    },
  });
}

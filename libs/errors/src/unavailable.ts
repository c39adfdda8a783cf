/**
 * Socket errors of a server that cannot be reached or dropped the connection (Node's `code`).
 * Prisma's driver adapter counts the same ones as "not reachable" (P1001), "closed" (P1017) and
 * "timed out" (P1008).
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * postgres.js's codes (`PgPoolSql` of `@service/sql`) for a connection the server closed, one the
 * client destroyed or ended, and a connection not made in time.
 */
const POSTGRES_JS_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT']);

/**
 * SQLSTATEs of a server that ended or refused the session: class 08 (connection exception),
 * 57P01 admin shutdown (also what a backend says when its postmaster died), 57P02 crash shutdown,
 * 57P03 cannot connect now (starting up, in recovery, shutting down).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/**
 * Prisma's codes for a server it cannot reach (P1001, P1002), an operation that timed out on the
 * socket (P1008), a connection the server closed (P1017), and its pool timeout (P2024).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** `@prisma/adapter-pg`'s kinds for the socket errors above, on a `DriverAdapterError`'s `cause`. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);

/**
 * node-postgres's errors that carry no code: the server dropped the connection, a client used
 * after that, a connection not made in time, no pooled connection free in time.
 */
const PG_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
]);

/**
 * Prisma's pool wait of an interactive transaction (`maxWait`) ran out. P2028 also reports a
 * transaction that outlived its own `timeout`, which is the caller's doing, not unavailability.
 */
const TRANSACTION_START_TIMEOUT = 'Unable to start a transaction in the given time';

/** Errors wrapped deeper than this are not followed (a cycle, or nothing a driver builds). */
const MOST_LINKS = 16;

type Fields = Record<string, unknown>;

/**
 * What says that `error` is a dependency, the database above all, that cannot be used right now
 * (refused, dropped or timed-out connections, a server shutting down, crashed or recovering, a
 * pool with no connection free in time): a short label for logs (a code, never a host), or
 * undefined for anything else, constraint violations, serialization failures and bugs included.
 *
 * Read by shape, never with `instanceof`: the error may come from another realm (Node's own
 * errors inside a Jest test's VM context) or from a driver this lib does not import. The error,
 * its `cause` chain, the errors of an `AggregateError` and the `DriverAdapterError` Prisma keeps
 * in `meta.driverAdapterError` are all read.
 */
export function unavailabilityOf(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < MOST_LINKS) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const fields = next as Fields;
    const reason = reasonOf(fields);
    if (reason !== undefined) return reason;
    queue.push(...linked(fields));
  }
  return undefined;
}

function reasonOf({ code, originalCode, kind, message }: Fields): string | undefined {
  for (const value of [code, originalCode]) {
    if (
      typeof value === 'string' &&
      (SOCKET_CODES.has(value) || POSTGRES_JS_CODES.has(value) || SQLSTATE.test(value) || PRISMA_CODES.has(value))
    )
      return value;
  }
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return kind;
  if (typeof message !== 'string') return undefined;
  if (PG_MESSAGES.has(message)) return message;
  return code === 'P2028' && message.includes(TRANSACTION_START_TIMEOUT) ? `P2028 ${TRANSACTION_START_TIMEOUT}` : undefined;
}

function linked({ cause, errors, meta }: Fields): unknown[] {
  const adapterError = typeof meta === 'object' && meta !== null ? (meta as Fields)['driverAdapterError'] : undefined;
  return [cause, adapterError, ...(Array.isArray(errors) ? (errors as unknown[]) : [])];
}

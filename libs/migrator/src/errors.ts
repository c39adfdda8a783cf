/**
 * Expected failures of the migrator. `message` is written for the person running the migration
 * (what went wrong and what to do), so callers print it as is, without a stack trace.
 */
export type MigrationErrorCode =
  /** PostgreSQL did not accept a connection (down, wrong host or port, bad credentials). */
  | 'database_unreachable'
  /** An applied migration's migration.sql was edited after it was applied. */
  | 'checksum_mismatch'
  /** A migration failed in an earlier run and was not resolved. */
  | 'failed_migration'
  /** A migration failed now; it was rolled back and recorded as failed. */
  | 'migration_failed'
  /** Another process held the schema's migration lock for too long. */
  | 'lock_timeout'
  /** The migrations folder or schema file is missing or malformed. */
  | 'invalid_input'
  /** The schema engine could not compute a migration (invalid schema, history does not replay). */
  | 'engine_error';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';

  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isMigrationError(error: unknown): error is MigrationError {
  return error instanceof MigrationError;
}

const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** SQLSTATEs raised while establishing a session rather than by a statement. */
const CONNECTION_SQLSTATES: Record<string, string> = {
  '28000': 'the server rejected the role',
  '28P01': 'password authentication failed',
  '3D000': 'the database does not exist',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'the server has too many connections',
};

interface ErrorWithCode {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

function errorCode(error: unknown): string | undefined {
  const { code, errors } = (error ?? {}) as ErrorWithCode;
  if (typeof code === 'string') return code;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(errors)) return errors.map(errorCode).find((c) => c !== undefined);
  return undefined;
}

/** Whether `error` says the server could not be reached at all (as opposed to a rejected login). */
export function isNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined && NETWORK_ERROR_CODES.has(code)) return true;
  const message = String((error as ErrorWithCode | undefined)?.message ?? '');
  return /timeout expired|Connection terminated unexpectedly/i.test(message);
}

/**
 * Turns a failure to open a connection into a `database_unreachable` MigrationError; returns any
 * other error unchanged.
 */
export function connectionError(error: unknown, target: string): unknown {
  if (error instanceof MigrationError) return error;
  const code = errorCode(error);
  const reason = isNetworkError(error)
    ? `${code ?? 'no answer'} (is PostgreSQL running and listening there?)`
    : code !== undefined && code in CONNECTION_SQLSTATES
      ? `${CONNECTION_SQLSTATES[code]}: ${(error as Error).message}`
      : undefined;
  if (reason === undefined) return error;
  return new MigrationError('database_unreachable', `Cannot connect to PostgreSQL at ${target}: ${reason}.`, {
    cause: error,
  });
}

/** Connection target for messages, without the password. */
export function describeTarget(config: { connectionString?: string; host?: string; port?: number; database?: string }): string {
  if (config.connectionString !== undefined) {
    try {
      const url = new URL(config.connectionString);
      url.password = '';
      return `${url.host}${url.pathname}`;
    } catch {
      return 'the configured database';
    }
  }
  return `${config.host ?? 'localhost'}:${config.port ?? 5432}/${config.database ?? ''}`;
}

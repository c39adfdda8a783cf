import pg from 'pg';
import { MigrationError, connectionError, describeTarget } from './errors.js';

const CONNECT_TIMEOUT_MS = 10_000;

/** Quotes an identifier (schema, database) for interpolation into SQL. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Opens a client, turning connection failures into `database_unreachable` errors. */
export async function openClient(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...config });
  // A server-side disconnect surfaces on the next query; without a listener it would kill the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectionError(error, describeTarget(config));
  }
  return client;
}

/** The database a connection string names, and the same string pointed at another database. */
export function parseDatabaseUrl(connectionString: string): {
  url: URL;
  database: string;
  withDatabase(name: string): string;
} {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new MigrationError('invalid_input', 'DATABASE_URL is not a valid postgresql:// URL.');
  }
  return {
    url,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    withDatabase(name: string) {
      const copy = new URL(url.href);
      copy.pathname = `/${encodeURIComponent(name)}`;
      return copy.href;
    },
  };
}

/**
 * Creates the database that `connectionString` names when it does not exist, connecting to
 * `maintenanceDatabase` on the same server to do so. Returns whether it created it.
 */
export async function ensureDatabase(
  connectionString: string,
  { maintenanceDatabase = 'postgres' }: { maintenanceDatabase?: string } = {},
): Promise<boolean> {
  const { database, withDatabase } = parseDatabaseUrl(connectionString);
  try {
    const client = await openClient({ connectionString });
    await client.end();
    return false;
  } catch (error) {
    const missing = (error as { cause?: { code?: string } }).cause?.code === '3D000';
    if (!missing || database === '') throw error;
  }
  const admin = await openClient({ connectionString: withDatabase(maintenanceDatabase) });
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
    return true;
  } catch (error) {
    // Another process created it in the meantime (23505 when both inserted into pg_database at once).
    const code = (error as { code?: string }).code;
    if (code === '42P04' || code === '23505') return false;
    throw error;
  } finally {
    await admin.end();
  }
}

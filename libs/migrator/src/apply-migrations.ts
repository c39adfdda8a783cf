// `prisma migrate deploy` with plain `pg`: the same `_prisma_migrations` table, rows and checksums,
// so either tool can continue where the other stopped. Two differences, both stricter: each
// migration runs in a transaction (Prisma's driver-adapter path runs statements one by one and can
// leave half a migration behind), and an applied migration whose file changed stops the deploy.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { MigrationError } from './errors.js';
import { type LocalMigration, readMigrations, scriptMatchesChecksum } from './migrations-dir.js';
import { openClient, quoteIdent } from './postgres.js';

export interface ApplyMigrationsOptions {
  /** postgresql:// URL of the database; the schema need not exist. */
  connectionString: string;
  /** PostgreSQL schema the migrations are applied in (their SQL is schema-unqualified). */
  schema: string;
  /** Folder of `<timestamp>_<name>/migration.sql` folders. */
  migrationsDir: string;
  /** Progress messages, one line each. */
  log?: (message: string) => void;
  /** How long to wait for another process migrating the same schema. Default 60 s. */
  lockTimeoutMs?: number;
}

/** First key of the two-key advisory lock; Prisma's own (single-key) lock uses the same number. */
const LOCK_NAMESPACE = 72707369;

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
}

/** Prisma's definition (prisma-engines, postgres flavour), qualified with the schema. */
function migrationsTableDdl(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;
}

/**
 * Creates `schema` if missing and applies, in order, every migration of `migrationsDir` not yet
 * recorded in `<schema>._prisma_migrations`. Holds an advisory lock on the schema meanwhile, so
 * concurrent callers apply each migration once. Returns the names it applied.
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<string[]> {
  const { connectionString, schema, migrationsDir, log = () => undefined, lockTimeoutMs = 60_000 } = options;
  const migrations = await readMigrations(migrationsDir);
  const client = await openClient({ connectionString, application_name: 'service-migrator' });
  try {
    await lockSchema(client, schema, lockTimeoutMs);
    const table = `${quoteIdent(schema)}._prisma_migrations`;
    await createSchemaAndTable(client, schema, table);
    const rows = (
      await client.query<MigrationRow>(
        `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at FROM ${table} ORDER BY started_at`,
      )
    ).rows;
    const applied = checkHistory(schema, migrations, rows);
    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) {
      log(`applying ${migration.name} in schema "${schema}"`);
      await applyOne(client, schema, table, migration);
    }
    return pending.map((migration) => migration.name);
  } finally {
    // Ending the session also releases the advisory lock.
    await client.end().catch(() => undefined);
  }
}

async function lockSchema(client: pg.Client, schema: string, timeoutMs: number): Promise<void> {
  await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${Math.max(1, Math.round(timeoutMs))}ms`]);
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_NAMESPACE, schema]);
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') {
      throw new MigrationError(
        'lock_timeout',
        `Another process kept migrating schema "${schema}" for more than ${timeoutMs} ms; try again when it has finished.`,
        { cause: error },
      );
    }
    throw error;
  }
  await client.query('RESET lock_timeout');
}

/**
 * Creates the schema and Prisma's table when missing. Existence is checked first because the
 * CREATE ... IF NOT EXISTS forms still demand CREATE privilege, which a least-privilege migration
 * role working in a schema provisioned for it does not have.
 */
async function createSchemaAndTable(client: pg.Client, schema: string, table: string): Promise<void> {
  const { rows } = await client.query<{ schema_exists: boolean; table_exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema_exists, to_regclass($2) IS NOT NULL AS table_exists`,
    [schema, table],
  );
  if (!rows[0]?.schema_exists) {
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    } catch (error) {
      // Created concurrently by a process that does not take our lock (e.g. prisma migrate deploy).
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }
  if (!rows[0]?.table_exists) await client.query(migrationsTableDdl(table));
}

/** Refuses a history Prisma would refuse, plus edited migrations; returns the applied names. */
function checkHistory(schema: string, migrations: LocalMigration[], rows: MigrationRow[]): Set<string> {
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.find((row) => row.finished_at === null);
  if (failed !== undefined) {
    const reason = summarizeLogs(failed.logs);
    throw new MigrationError(
      'failed_migration',
      `Schema "${schema}" has a failed migration: ${failed.migration_name}, started at ${failed.started_at.toISOString()}, failed (${reason}). ` +
        `No further migration is applied until it is resolved. ${resolveHint(schema, failed.migration_name)}`,
    );
  }
  const applied = new Map(live.map((row) => [row.migration_name, row]));
  const edited = migrations.filter((migration) => {
    const row = applied.get(migration.name);
    return row !== undefined && !scriptMatchesChecksum(migration.script, row.checksum);
  });
  if (edited.length > 0) {
    throw new MigrationError(
      'checksum_mismatch',
      `Migrations already applied to schema "${schema}" were modified afterwards: ${edited.map((m) => m.name).join(', ')}. ` +
        `An applied migration must not change: restore its migration.sql and put the change in a new migration.`,
    );
  }
  return new Set(applied.keys());
}

/**
 * Runs one migration in a transaction with its row, as Prisma records it: inserted when started,
 * `finished_at` and `applied_steps_count = 1` on success, `logs` and no `finished_at` on failure.
 */
async function applyOne(client: pg.Client, schema: string, table: string, migration: LocalMigration): Promise<void> {
  const id = randomUUID();
  // Session-level, not SET LOCAL: Prisma's enum migrations carry their own BEGIN/COMMIT, after
  // which a transaction-local setting would be gone for the rest of the script.
  await client.query(`SET search_path TO ${quoteIdent(schema)}`);
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO ${table} (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, clock_timestamp(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.script);
    await client.query(`UPDATE ${table} SET finished_at = clock_timestamp(), applied_steps_count = applied_steps_count + 1 WHERE id = $1`, [
      id,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const message = describeSqlError(error);
    // If even this fails (connection lost), nothing is recorded and the next deploy simply retries.
    await client
      .query(
        `INSERT INTO ${table} (id, checksum, migration_name, logs, started_at, applied_steps_count)
         VALUES ($1, $2, $3, $4, clock_timestamp(), 0)
         ON CONFLICT (id) DO UPDATE SET logs = EXCLUDED.logs`,
        [id, migration.checksum, migration.name, message],
      )
      .catch(() => undefined);
    throw new MigrationError(
      'migration_failed',
      `Migration ${migration.name} failed in schema "${schema}" and was rolled back: ${message}. ` +
        `It is recorded as failed, as Prisma does. ${resolveHint(schema, migration.name)}`,
      { cause: error },
    );
  } finally {
    await client.query('RESET search_path').catch(() => undefined);
  }
}

/** The error lines of a `logs` value, without the engine's span trace that Prisma appends. */
function summarizeLogs(logs: string | null): string {
  if (logs === null) return 'no log recorded';
  const lines = logs.split('\n');
  const traceStart = lines.findIndex((line) => /^\s+\d+: /.test(line));
  return lines
    .slice(0, traceStart === -1 ? undefined : traceStart)
    .join(' ')
    .trim();
}

function resolveHint(schema: string, name: string): string {
  const literal = `'${name.replaceAll("'", "''")}'`;
  return (
    `Repair the schema if the migration left anything behind, fix its SQL if it is wrong, then mark it rolled back with\n` +
    `  UPDATE ${quoteIdent(schema)}._prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${literal} AND finished_at IS NULL;\n` +
    `(what \`prisma migrate resolve --rolled-back ${name}\` does) and deploy again.`
  );
}

function describeSqlError(error: unknown): string {
  const { message, code, position } = error as { message?: string; code?: string; position?: string };
  const details = [code && `SQLSTATE ${code}`, position && `at character ${position}`].filter(Boolean).join(', ');
  return `${message ?? String(error)}${details ? ` (${details})` : ''}`;
}

// `prisma migrate dev --create-only` without the native engine: the wasm engine replays the
// migrations folder into a throwaway shadow database and diffs the result against schema.prisma.
// The shadow database is introspected in `public` and the datamodel has no `@@schema`, so the SQL
// it renders is schema-unqualified and applies in whatever schema `search_path` names.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { MigrationError } from './errors.js';
import { LOCK_FILE, LOCK_FILE_CONTENT, MIGRATION_FILE, type LocalMigration, readLockFile, readMigrations } from './migrations-dir.js';
import { openClient, parseDatabaseUrl, quoteIdent } from './postgres.js';
import { type EngineConnections, enginePool, withSchemaEngine } from './schema-engine.js';

/**
 * Where the shadow database goes. Given as separate fields, not a connection string, because
 * @prisma/adapter-pg lets a connection string override the database it points a pool at.
 */
export interface ShadowDatabaseOptions {
  host: string;
  port?: number;
  user: string;
  password?: string;
  /** Name of the throwaway database to create for the diff; it must not exist and is dropped WITH (FORCE) after. */
  database: string;
  /** Existing database on that server to create and drop it from. Default `postgres`. */
  maintenanceDatabase?: string;
}

export interface CreateMigrationOptions {
  /** The service's schema.prisma, the desired state. */
  schemaPath: string;
  /** Its migrations folder (created when missing), the current state. */
  migrationsDir: string;
  /** snake_case suffix of the migration folder, e.g. `add_wallet_label`. */
  name: string;
  shadow: ShadowDatabaseOptions;
  /**
   * The engine's main connection. Only opened, never read from or written to by the diff;
   * defaults to the shadow server's maintenance database.
   */
  connectionString?: string;
  /** Clock for the folder's timestamp (tests). */
  now?: Date;
}

const NAME_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

/**
 * Writes `<migrationsDir>/<yyyymmddHHMMSS>_<name>/migration.sql` with the SQL that takes the
 * migrations folder's schema to schema.prisma's, plus `migration_lock.toml` when missing. Returns
 * the path of the new migration.sql, or null when schema.prisma adds nothing.
 */
export async function createMigration(options: CreateMigrationOptions): Promise<string | null> {
  const { schemaPath, migrationsDir, name, shadow, connectionString, now = new Date() } = options;
  if (!NAME_PATTERN.test(name) || name.length > 100) {
    throw new MigrationError('invalid_input', `Migration name "${name}" must be snake_case (a-z, 0-9, _), e.g. add_wallet_label.`);
  }
  const schemaText = await readSchemaFile(schemaPath);
  const migrations = await readMigrations(migrationsDir, { allowMissing: true });
  const lockFile = await readLockFile(migrationsDir);

  const script = await diffMigrationsToSchema({
    schemaPath,
    schemaText,
    migrationsDir,
    migrations,
    lockFile: lockFile ?? LOCK_FILE_CONTENT,
    shadow,
    connectionString,
  });
  if (script === null) return null;

  const folder = path.join(migrationsDir, `${migrationTimestamp(now, migrations)}_${name}`);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, MIGRATION_FILE);
  await writeFile(file, script, { encoding: 'utf8', flag: 'wx' });
  if (lockFile === null) await writeFile(path.join(migrationsDir, LOCK_FILE), LOCK_FILE_CONTENT, 'utf8');
  return file;
}

/** Shadow options for a throwaway database on the server a postgresql:// URL points at. */
export function shadowDatabaseFor(connectionString: string, database?: string): ShadowDatabaseOptions {
  const { url } = parseDatabaseUrl(connectionString);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1') || url.searchParams.get('host') || 'localhost';
  return {
    host,
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username) || 'postgres',
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: database ?? `prisma_shadow_${randomBytes(6).toString('hex')}`,
  };
}

async function readSchemaFile(schemaPath: string): Promise<string> {
  try {
    return await readFile(schemaPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new MigrationError('invalid_input', `The Prisma schema ${schemaPath} does not exist.`);
    }
    throw error;
  }
}

interface DiffInput {
  schemaPath: string;
  schemaText: string;
  migrationsDir: string;
  migrations: LocalMigration[];
  lockFile: string;
  shadow: ShadowDatabaseOptions;
  connectionString?: string;
}

/** The engine's SQL from the migrations' end state to the schema's, or null when they agree. */
async function diffMigrationsToSchema(input: DiffInput): Promise<string | null> {
  const { shadow } = input;
  const server = { host: shadow.host, port: shadow.port, user: shadow.user, password: shadow.password };
  const maintenance = { ...server, database: shadow.maintenanceDatabase ?? 'postgres' };
  const admin = await openClient(maintenance);
  const shadows = new ShadowDatabases(admin, server, shadow.database);
  const mainPool = enginePool(input.connectionString ? { connectionString: input.connectionString } : maintenance);
  const connections: EngineConnections = { main: { pool: mainPool }, shadow: () => shadows.create() };
  try {
    const result = await withSchemaEngine([[input.schemaPath, input.schemaText]], connections, (engine) =>
      engine.diff({
        from: {
          tag: 'migrations',
          baseDir: input.migrationsDir,
          lockfile: { path: LOCK_FILE, content: input.lockFile },
          shadowDbInitScript: '',
          migrationDirectories: input.migrations.map((migration) => ({
            path: migration.name,
            migrationFile: { path: MIGRATION_FILE, content: { tag: 'ok', value: migration.script } },
          })),
        },
        to: { tag: 'schemaDatamodel', files: [{ path: input.schemaPath, content: input.schemaText }] },
        script: true,
        // Makes the engine answer 2 when there is something to migrate, 0 when there is not.
        exitCode: true,
        filters: { externalTables: [], externalEnums: [] },
      }),
    );
    return result.exitCode === 0 ? null : (result.stdout ?? '');
  } finally {
    await shadows.dropAll();
    await mainPool.end().catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}

/** Creates shadow databases on request and makes sure every one is dropped. */
class ShadowDatabases {
  private readonly live = new Set<string>();
  private created = 0;

  constructor(
    private readonly admin: pg.Client,
    private readonly server: pg.PoolConfig,
    private readonly baseName: string,
  ) {}

  async create() {
    this.created += 1;
    const name = this.created === 1 ? this.baseName : `${this.baseName}_${this.created}`;
    await this.admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
    this.live.add(name);
    const pool = enginePool({ ...this.server, database: name });
    return {
      pool,
      release: async () => {
        await pool.end().catch(() => undefined);
        await this.drop(name);
      },
    };
  }

  async dropAll(): Promise<void> {
    for (const name of [...this.live]) await this.drop(name);
  }

  private async drop(name: string): Promise<void> {
    if (!this.live.delete(name)) return;
    await this.admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  }
}

/** UTC yyyymmddHHMMSS, moved past the newest existing migration so the new one sorts last. */
function migrationTimestamp(now: Date, existing: LocalMigration[]): string {
  const format = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const newest = existing
    .map((migration) => migration.name.slice(0, 14))
    .filter((prefix) => /^\d{14}$/.test(prefix))
    .sort()
    .at(-1);
  const stamp = format(now);
  if (newest === undefined || stamp > newest) return stamp;
  const part = (at: number, length = 2) => Number(newest.slice(at, at + length));
  return format(new Date(Date.UTC(part(0, 4), part(4) - 1, part(6), part(8), part(10), part(12) + 1)));
}

import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, isMigrationError, migrationChecksum } from './index.js';
import { readMigrations } from './migrations-dir.js';
import { enginePool, withSchemaEngine } from './schema-engine.js';
import { copyFixture, createSandboxDatabase, FIXTURES, sql, uniqueName } from './testing/sandbox.js';

const LEDGER = path.join(FIXTURES, 'ledger');
const LEDGER_MIGRATIONS = path.join(LEDGER, 'migrations');
const LEDGER_NAMES = ['20240101000000_create_accounts', '20240102000000_add_entries'];

let database: Awaited<ReturnType<typeof createSandboxDatabase>>;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await createSandboxDatabase();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await database.drop();
});

function freshSchema(): string {
  const schema = uniqueName('svc');
  cleanups.push(() => sql(database.url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`).then(() => undefined));
  return schema;
}

async function ledgerCopy(): Promise<string> {
  const copy = await copyFixture('ledger');
  cleanups.push(copy.cleanup);
  return path.join(copy.dir, 'migrations');
}

function tablesOf(schema: string) {
  return sql<{ table_name: string }>(
    database.url,
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  ).then((rows) => rows.map((row) => row.table_name));
}

function migrationRows(schema: string) {
  return sql(database.url, `SELECT * FROM "${schema}"._prisma_migrations ORDER BY started_at`);
}

/**
 * Runs `use` with Prisma's own engine connected to `schema` the way Prisma connects (search_path).
 * The engine arms a 10 s timer around its advisory lock and never clears it, so timers set
 * meanwhile are unref'd: they must not keep Jest waiting.
 */
async function withPrismaEngine<T>(schema: string, use: Parameters<typeof withSchemaEngine<T>>[2]): Promise<T> {
  const pool = enginePool({ connectionString: database.url, options: `-c search_path="${schema}"` });
  const setTimeoutBefore = globalThis.setTimeout;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => setTimeoutBefore(...args).unref()) as typeof setTimeout;
  try {
    const schemaPath = path.join(LEDGER, 'schema.prisma');
    return await withSchemaEngine([[schemaPath, await readFile(schemaPath, 'utf8')]], { main: { pool, schema } }, use);
  } finally {
    globalThis.setTimeout = setTimeoutBefore;
    await pool.end();
  }
}

async function prismaMigrationsList(migrationsDir: string) {
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8') },
    shadowDbInitScript: '',
    migrationDirectories: (await readMigrations(migrationsDir)).map((m) => ({
      path: m.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: m.script } },
    })),
  };
}

const NO_FILTER = { externalTables: [], externalEnums: [] };

describe('applyMigrations', () => {
  it('creates the schema and applies the migrations in order inside it, and a re-run applies nothing', async () => {
    const schema = freshSchema();
    const options = { connectionString: database.url, schema, migrationsDir: LEDGER_MIGRATIONS };

    expect(await applyMigrations(options)).toEqual(LEDGER_NAMES);
    expect(await tablesOf(schema)).toEqual(['_prisma_migrations', 'accounts', 'entries']);
    expect(await tablesOf('public')).toEqual([]);

    expect(await applyMigrations(options)).toEqual([]);
    expect(await migrationRows(schema)).toHaveLength(2);
  });

  it("records rows exactly as Prisma does, so Prisma's engine sees its own history", async () => {
    const ours = freshSchema();
    await applyMigrations({ connectionString: database.url, schema: ours, migrationsDir: LEDGER_MIGRATIONS });

    const rows = await migrationRows(ours);
    const scripts = await Promise.all(LEDGER_NAMES.map((n) => readFile(path.join(LEDGER_MIGRATIONS, n, 'migration.sql'), 'utf8')));
    expect(rows).toEqual(
      LEDGER_NAMES.map((name, i) => ({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        checksum: migrationChecksum(scripts[i]!),
        finished_at: expect.any(Date),
        migration_name: name,
        logs: null,
        rolled_back_at: null,
        started_at: expect.any(Date),
        applied_steps_count: 1,
      })),
    );
    expect(rows[0]!['checksum']).toMatch(/^[0-9a-f]{64}$/);

    // The same table definition as the one Prisma's engine creates.
    const prismas = freshSchema();
    await sql(database.url, `CREATE SCHEMA "${prismas}"`);
    const list = await prismaMigrationsList(LEDGER_MIGRATIONS);
    const applied = await withPrismaEngine(prismas, (engine) => engine.applyMigrations({ migrationsList: list, filters: NO_FILTER }));
    expect(applied.appliedMigrationNames).toEqual(LEDGER_NAMES);
    const columns = (schema: string) =>
      sql(
        database.url,
        `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default, ordinal_position
           FROM information_schema.columns WHERE table_schema = $1 AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
        [schema],
      );
    expect(await columns(ours)).toEqual(await columns(prismas));
    const prismaRows = await migrationRows(prismas);
    expect(
      prismaRows.map(({ checksum, migration_name, applied_steps_count, logs }) => ({
        checksum,
        migration_name,
        applied_steps_count,
        logs,
      })),
    ).toEqual(
      rows.map(({ checksum, migration_name, applied_steps_count, logs }) => ({ checksum, migration_name, applied_steps_count, logs })),
    );

    // Prisma's engine reads our history as complete and unedited, and has nothing to apply.
    const { diagnosis, again } = await withPrismaEngine(ours, async (engine) => ({
      diagnosis: await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTER }),
      again: await engine.applyMigrations({ migrationsList: list, filters: NO_FILTER }),
    }));
    expect(diagnosis).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
    expect(again.appliedMigrationNames).toEqual([]);
  });

  it('continues a history Prisma started', async () => {
    const schema = freshSchema();
    await sql(database.url, `CREATE SCHEMA "${schema}"`);
    const migrationsDir = await ledgerCopy();
    await withPrismaEngine(schema, async (engine) => {
      const list = await prismaMigrationsList(migrationsDir);
      list.migrationDirectories = list.migrationDirectories.slice(0, 1);
      await engine.applyMigrations({ migrationsList: list, filters: NO_FILTER });
    });

    expect(await applyMigrations({ connectionString: database.url, schema, migrationsDir })).toEqual([LEDGER_NAMES[1]]);
    expect(await tablesOf(schema)).toEqual(['_prisma_migrations', 'accounts', 'entries']);
  });

  it('refuses to go on when an applied migration was edited', async () => {
    const schema = freshSchema();
    const migrationsDir = await ledgerCopy();
    await applyMigrations({ connectionString: database.url, schema, migrationsDir });
    const edited = path.join(migrationsDir, LEDGER_NAMES[0]!, 'migration.sql');
    await writeFile(edited, `${await readFile(edited, 'utf8')}\nCREATE TABLE "sneaky" (id int);\n`);

    const failure = applyMigrations({ connectionString: database.url, schema, migrationsDir });
    await expect(failure).rejects.toMatchObject({ code: 'checksum_mismatch' });
    await expect(failure).rejects.toThrow(LEDGER_NAMES[0]);
    expect(await tablesOf(schema)).not.toContain('sneaky');
  });

  it('accepts an applied migration whose line endings alone changed', async () => {
    const schema = freshSchema();
    const migrationsDir = await ledgerCopy();
    await applyMigrations({ connectionString: database.url, schema, migrationsDir });
    const file = path.join(migrationsDir, LEDGER_NAMES[0]!, 'migration.sql');
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('\n', '\r\n'));

    expect(await applyMigrations({ connectionString: database.url, schema, migrationsDir })).toEqual([]);
  });

  it('rolls a failing migration back, records it as failed, and refuses later runs until it is resolved', async () => {
    const schema = freshSchema();
    const migrationsDir = await ledgerCopy();
    const broken = '20240103000000_broken';
    await copyInto(migrationsDir, broken, 'CREATE TABLE "half_done" (id int);\nSELECT 1 / 0;\n');

    const first = applyMigrations({ connectionString: database.url, schema, migrationsDir });
    await expect(first).rejects.toMatchObject({ code: 'migration_failed' });
    await expect(first).rejects.toThrow(/division by zero/);
    expect(await tablesOf(schema)).toEqual(['_prisma_migrations', 'accounts', 'entries']);
    const failedRow = (await migrationRows(schema))[2]!;
    expect(failedRow).toMatchObject({ migration_name: broken, finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failedRow['logs']).toMatch(/division by zero/);

    const again = applyMigrations({ connectionString: database.url, schema, migrationsDir });
    await expect(again).rejects.toMatchObject({ code: 'failed_migration' });
    await expect(again).rejects.toThrow(/rolled_back_at = now\(\)/);

    // Resolving as the message says (what `prisma migrate resolve --rolled-back` does) and fixing the SQL unblocks it.
    await sql(
      database.url,
      `UPDATE "${schema}"._prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1 AND finished_at IS NULL`,
      [broken],
    );
    await copyInto(migrationsDir, broken, 'CREATE TABLE "half_done" (id int);\n');
    expect(await applyMigrations({ connectionString: database.url, schema, migrationsDir })).toEqual([broken]);
  });

  it('applies each migration once when several processes deploy the same schema at once', async () => {
    const schema = freshSchema();
    const runs = await Promise.all(
      [1, 2, 3].map(() => applyMigrations({ connectionString: database.url, schema, migrationsDir: LEDGER_MIGRATIONS })),
    );

    expect(runs.flat().sort()).toEqual(LEDGER_NAMES);
    expect(runs.filter((names) => names.length > 0)).toHaveLength(1);
    expect(await migrationRows(schema)).toHaveLength(2);
  });

  it('gives up with lock_timeout while another process keeps the schema locked', async () => {
    const schema = freshSchema();
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(72707369, hashtext($1))', [schema]);
      await expect(
        applyMigrations({ connectionString: database.url, schema, migrationsDir: LEDGER_MIGRATIONS, lockTimeoutMs: 100 }),
      ).rejects.toMatchObject({ code: 'lock_timeout' });
    } finally {
      await holder.end();
    }
    expect(await tablesOf(schema)).toEqual([]);
  });

  it('works as a role that may not create schemas, in a schema provisioned for it', async () => {
    const schema = freshSchema();
    const role = uniqueName('migrator_spec_role');
    await sql(database.url, `CREATE ROLE "${role}" LOGIN; CREATE SCHEMA "${schema}" AUTHORIZATION "${role}"`);
    cleanups.push(() => sql(database.url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP ROLE "${role}"`).then(() => undefined));
    const asRole = new URL(database.url);
    asRole.username = role;

    const options = { connectionString: asRole.href, schema, migrationsDir: LEDGER_MIGRATIONS };
    expect(await applyMigrations(options)).toEqual(LEDGER_NAMES);
    expect(await applyMigrations(options)).toEqual([]);
  });

  it('reports an unreachable server as database_unreachable', async () => {
    const failure = applyMigrations({
      connectionString: 'postgresql://postgres@127.0.0.1:1/nothing',
      schema: 'x',
      migrationsDir: LEDGER_MIGRATIONS,
    });
    await expect(failure).rejects.toMatchObject({ code: 'database_unreachable' });
    await expect(failure.catch((error: unknown) => isMigrationError(error))).resolves.toBe(true);
  });

  it('reports a missing migrations folder', async () => {
    await expect(
      applyMigrations({ connectionString: database.url, schema: 'x', migrationsDir: path.join(FIXTURES, 'nope') }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

async function copyInto(migrationsDir: string, name: string, script: string): Promise<void> {
  await mkdir(path.join(migrationsDir, name), { recursive: true });
  await writeFile(path.join(migrationsDir, name, 'migration.sql'), script);
}

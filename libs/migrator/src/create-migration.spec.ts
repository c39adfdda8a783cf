import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyMigrations, createMigration, shadowDatabaseFor } from './index.js';
import { LOCK_FILE_CONTENT } from './migrations-dir.js';
import { copyFixture, createSandboxDatabase, SERVER_URL, sql, uniqueName } from './testing/sandbox.js';

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

/** A copy of the ledger fixture: its schema.prisma and, unless `withMigrations`, no migrations yet. */
async function ledgerProject({ withMigrations }: { withMigrations: boolean }) {
  const copy = await copyFixture('ledger');
  cleanups.push(copy.cleanup);
  const migrationsDir = path.join(copy.dir, 'migrations');
  if (!withMigrations) await rm(migrationsDir, { recursive: true });
  return { schemaPath: path.join(copy.dir, 'schema.prisma'), migrationsDir };
}

function shadow() {
  return shadowDatabaseFor(SERVER_URL, uniqueName('migrator_spec_shadow'));
}

async function leftoverShadows(prefix: string): Promise<string[]> {
  const rows = await sql<{ datname: string }>(SERVER_URL, `SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${prefix}%`]);
  return rows.map((row) => row.datname);
}

describe('createMigration', () => {
  it('writes schema-unqualified SQL that creates the tables, and nothing when the schema is unchanged', async () => {
    const project = await ledgerProject({ withMigrations: false });
    const shadowDb = shadow();

    const file = await createMigration({ ...project, name: 'init', shadow: shadowDb, now: new Date('2024-05-06T07:08:09Z') });

    expect(file).toBe(path.join(project.migrationsDir, '20240506070809_init', 'migration.sql'));
    const script = await readFile(file!, 'utf8');
    expect(script).toContain('CREATE TYPE "AccountKind" AS ENUM');
    expect(script).toContain('CREATE TABLE "accounts"');
    expect(script).toContain('CREATE TABLE "entries"');
    expect(script).not.toMatch(/"public"\s*\./);
    expect(await readFile(path.join(project.migrationsDir, 'migration_lock.toml'), 'utf8')).toBe(LOCK_FILE_CONTENT);
    expect(await leftoverShadows(shadowDb.database)).toEqual([]);

    const schema = uniqueName('svc');
    cleanups.push(() => sql(database.url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`).then(() => undefined));
    await applyMigrations({ connectionString: database.url, schema, migrationsDir: project.migrationsDir });
    const tables = await sql<{ table_name: string }>(
      database.url,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['_prisma_migrations', 'accounts', 'entries']);

    expect(await createMigration({ ...project, name: 'again', shadow: shadow() })).toBeNull();
    expect(await readdir(project.migrationsDir)).toEqual(['20240506070809_init', 'migration_lock.toml']);
  });

  it('replays the existing migrations and writes only the change, after the newest one', async () => {
    const project = await ledgerProject({ withMigrations: true });
    expect(await createMigration({ ...project, name: 'noop', shadow: shadow() })).toBeNull();

    const schemaText = await readFile(project.schemaPath, 'utf8');
    await writeFile(
      project.schemaPath,
      schemaText.replace('  name      String      @unique\n', '  name      String      @unique\n  label     String?\n'),
    );
    const file = await createMigration({
      ...project,
      name: 'add_account_label',
      shadow: shadow(),
      now: new Date('2020-01-01T00:00:00Z'),
      connectionString: database.url,
    });

    expect(path.basename(path.dirname(file!))).toBe('20240102000001_add_account_label');
    expect((await readFile(file!, 'utf8')).trim()).toBe('-- AlterTable\nALTER TABLE "accounts" ADD COLUMN     "label" TEXT;');
  });

  it('reports a migration history that does not replay, and drops the shadow database anyway', async () => {
    const project = await ledgerProject({ withMigrations: true });
    await writeFile(path.join(project.migrationsDir, '20240101000000_create_accounts', 'migration.sql'), 'CREATE TABLE broken (;');
    const shadowDb = shadow();

    await expect(createMigration({ ...project, name: 'x', shadow: shadowDb })).rejects.toMatchObject({ code: 'engine_error' });
    expect(await leftoverShadows(shadowDb.database)).toEqual([]);
  });

  it('refuses a name that is not snake_case', async () => {
    const project = await ledgerProject({ withMigrations: true });
    await expect(createMigration({ ...project, name: 'Add Label', shadow: shadow() })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});

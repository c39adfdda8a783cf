import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runMigrate } from './run.js';

const SERVER_URL = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_WORKSPACE = path.join(HERE, '../fixtures/workspace');
const WORKSPACE_ROOT = path.resolve(HERE, '../../..');
const UNREACHABLE_URL = 'postgresql://postgres@127.0.0.1:1/service_dev';

async function sql(connectionString: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/** Runs the command in-process against a copy of the fixture workspace. */
async function migrate(argv: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMigrate(argv, { env, root, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let root: string;
// The tool creates this database itself; it does not exist before the first deploy.
const database = `migrate_spec_${randomBytes(5).toString('hex')}`;
const env = { DATABASE_URL: databaseUrl(database) };

beforeAll(async () => {
  root = path.join(await mkdtemp(path.join(tmpdir(), 'migrate-tool-')), 'workspace');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});
afterAll(async () => {
  await sql(SERVER_URL, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await rm(path.dirname(root), { recursive: true, force: true });
});

async function freshWorkspace() {
  await cp(FIXTURE_WORKSPACE, root, { recursive: true });
}

async function tables(schema: string): Promise<string[]> {
  const rows = await sql(
    databaseUrl(database),
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  );
  return rows.map((row) => row['table_name'] as string);
}

describe('migrate deploy', () => {
  it("creates the database and deploys each service that has migrations into the service's schema", async () => {
    await freshWorkspace();

    const first = await migrate([], env);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toContain(`Created database ${database}.`);
    expect(first.out).toContain('wallet-service: applying 20240101000000_init in schema "wallet"');
    expect(first.out).not.toContain('webhook-service');
    expect(await tables('wallet')).toEqual(['_prisma_migrations', 'wallets']);

    const again = await migrate(['deploy'], env);
    expect(again).toMatchObject({ code: 0, out: 'wallet-service: schema "wallet" is up to date (nothing to apply).' });
  });

  it('deploys one app into the schema DATABASE_SCHEMA names', async () => {
    await freshWorkspace();
    const schema = `wallet_${randomBytes(4).toString('hex')}`;

    const result = await migrate(['deploy', '--app', 'wallet-service'], { ...env, DATABASE_SCHEMA: schema });

    expect(result.code).toBe(0);
    expect(await tables(schema)).toEqual(['_prisma_migrations', 'wallets']);
  });

  it('says how to write the first migration of an app that has none', async () => {
    await freshWorkspace();
    const result = await migrate(['deploy', '--app', 'webhook-service'], env);
    expect(result.code).toBe(1);
    expect(result.err).toContain('npm run migrate -- create --app webhook-service --name init');
  });

  it('says how to start PostgreSQL when it is unreachable, without a stack trace', async () => {
    await freshWorkspace();
    const result = await migrate([], { DATABASE_URL: UNREACHABLE_URL });
    expect(result.code).toBe(1);
    expect(result.err).toContain('Cannot connect to PostgreSQL at 127.0.0.1:1/service_dev');
    expect(result.err).toContain('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start');
    expect(result.err).not.toMatch(/^\s+at /m);
  });
});

describe('migrate create', () => {
  it('writes the migration for a schema change, then nothing while the schema stays the same', async () => {
    await freshWorkspace();
    const schemaPath = path.join(root, 'apps/wallet-service/prisma/schema.prisma');
    const schemaText = await readFile(schemaPath, 'utf8');
    await writeFile(schemaPath, schemaText.replace('  orgId String @map("org_id")\n', '  orgId String @map("org_id")\n  label String?\n'));

    const created = await migrate(['create', '--app', 'wallet-service', '--name', 'add_wallet_label'], env);
    expect(created.code).toBe(0);
    const migrations = await readdir(path.join(root, 'apps/wallet-service/prisma/migrations'));
    const added = migrations.find((name) => name.endsWith('_add_wallet_label'))!;
    expect(added).toMatch(/^\d{14}_add_wallet_label$/);
    expect(created.out).toContain(`wrote apps/wallet-service/prisma/migrations/${added}/migration.sql`);
    expect(await readFile(path.join(root, 'apps/wallet-service/prisma/migrations', added, 'migration.sql'), 'utf8')).toContain(
      'ALTER TABLE "wallets" ADD COLUMN',
    );

    const unchanged = await migrate(['create', '--app', 'wallet-service', '--name', 'nothing'], env);
    expect(unchanged).toMatchObject({ code: 0, out: 'wallet-service: schema.prisma matches its migrations; no migration written.' });
  });

  it.each([
    [['create', '--name', 'x']],
    [['create', '--app', 'wallet-service']],
    [['create', '--app', 'nope-service', '--name', 'x']],
    [['deploy', '--verbose']],
    [['rollback']],
  ])('refuses %j with usage and exit code 2', async (argv) => {
    const result = await migrate(argv, env);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Usage:');
  });
});

describe('the cli entry point', () => {
  it('exits non-zero with a plain message when PostgreSQL is unreachable', () => {
    const result = spawnSync(
      path.join(WORKSPACE_ROOT, 'node_modules/.bin/tsx'),
      [path.join(WORKSPACE_ROOT, 'tools/migrate/src/cli.ts'), 'deploy'],
      {
        cwd: WORKSPACE_ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: UNREACHABLE_URL, MIGRATE_WORKSPACE_ROOT: FIXTURE_WORKSPACE },
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('migrate: Cannot connect to PostgreSQL');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

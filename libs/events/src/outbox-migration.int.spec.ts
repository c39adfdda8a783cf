import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applyMigrations } from '@service/migrator';
import { newRunId, REPO_ROOT, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { NEXT_BATCH_SQL } from './relay.js';
import { unpublishedOutboxRows } from './outbox.js';

/** The migration that moved the relay from per-row claims to a recorded position, in every service. */
const MIGRATION = '20261127023918_outbox_relay_position';
const SERVICES = ['activity', 'gvault', 'identity', 'microvault', 'wallet', 'webhook'].map((name) => `${name}-service`);
const migrationsOf = (app: string) => path.join(REPO_ROOT, 'apps', app, 'prisma', 'migrations');

describe(`the ${MIGRATION} migration`, () => {
  const schema = `outbox_migration_${newRunId()}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  let before: string;

  beforeAll(async () => {
    await client.connect();
    // wallet-service's migrations up to the one before, in a folder of their own.
    before = await mkdtemp(path.join(tmpdir(), 'outbox-migration-'));
    for (const entry of await readdir(migrationsOf('wallet-service'))) {
      if (entry < MIGRATION) await cp(path.join(migrationsOf('wallet-service'), entry), path.join(before, entry), { recursive: true });
    }
  });

  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await rm(before, { recursive: true, force: true });
  });

  it('is the same in every service', async () => {
    const texts = await Promise.all(SERVICES.map((app) => readFile(path.join(migrationsOf(app), MIGRATION, 'migration.sql'), 'utf8')));
    expect(new Set(texts).size).toBe(1);
  });

  it('leaves the published rows behind the relay and the unpublished ones after it, in the order they occurred', async () => {
    await applyMigrations({ connectionString: TEST_DATABASE_URL, schema, migrationsDir: before });
    const row = (n: number, published: boolean) =>
      `('00000000-0000-4000-8000-00000000000${n}', 'portfolio_wallet.status_changed', 'org_m', '{"n": ${n}}', now() - interval '${10 - n} seconds', ${published ? 'now()' : 'NULL'})`;
    // Inserted out of order: the unpublished 4 occurred before the unpublished 5.
    await client.query(
      `INSERT INTO "${schema}".outbox_events (id, type, org_id, payload, occurred_at, published_at) VALUES ${[row(5, false), row(1, true), row(4, false), row(2, true), row(3, true)].join(', ')}`,
    );
    await applyMigrations({ connectionString: TEST_DATABASE_URL, schema, migrationsDir: migrationsOf('wallet-service') });

    await client.query(`SET search_path = "${schema}"`);
    const waiting = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${unpublishedOutboxRows()}`);
    expect(waiting.rows[0]?.n).toBe(2);
    const next = await client.query<{ payload: string }>(NEXT_BATCH_SQL, ['00000000-0000-4000-8000-0000000000aa', 5000, null, null, 100]);
    expect(next.rows.map((each) => JSON.parse(each.payload))).toEqual([{ n: 4 }, { n: 5 }]);
    // Rows written from now on come after them.
    await client.query(
      `INSERT INTO outbox_events (id, type, org_id, payload) VALUES ('00000000-0000-4000-8000-000000000006', 'portfolio_wallet.status_changed', 'org_m', '{"n": 6}')`,
    );
    const after = await client.query<{ payload: string }>(NEXT_BATCH_SQL, ['00000000-0000-4000-8000-0000000000aa', 5000, null, null, 100]);
    expect(after.rows.map((each) => JSON.parse(each.payload))).toEqual([{ n: 4 }, { n: 5 }, { n: 6 }]);
  });
});

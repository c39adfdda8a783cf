import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TEST_DATABASE_URL } from '@service/testing';
import postgres from 'postgres';

/**
 * The one private detail of postgres.js (pinned exactly in package.json) that `PgPoolSql` reads:
 * a query's `state` is null until postgres.js writes it to a connection. When a session is lost,
 * `pipeline` cancels the queries still at null, which postgres.js would otherwise send on the next
 * connection it opens, outside their transaction. This spec fails when that detail changes.
 */
let sql: postgres.Sql;

beforeAll(() => {
  sql = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => undefined });
});

afterAll(async () => {
  await sql?.end({ timeout: 1 });
});

const stateOf = (query: object): unknown => (query as { state?: unknown }).state;

describe('postgres.js internals that PgPoolSql relies on', () => {
  it('is the version pinned in package.json', async () => {
    const { readFileSync } = await import('node:fs');
    const manifest = JSON.parse(readFileSync(new URL('../../../node_modules/postgres/package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(root.dependencies['postgres']).toBe(manifest.version);
  });

  it('leaves state null until a query is written, and sets it when it is', async () => {
    const query = sql.unsafe('SELECT 1 AS n');
    expect(stateOf(query)).toBeNull();
    await expect(query.execute()).resolves.toEqual([{ n: 1 }]);
    expect(stateOf(query)).not.toBeNull();
  });

  it('holds a query behind one it describes first, unwritten, and a cancelled one is never sent', async () => {
    const first = sql.unsafe('SELECT $1::int AS n', ['7'], { prepare: true });
    const second = sql.unsafe('SELECT pg_backend_pid() AS pid');
    const firstDone = first.execute().then((rows) => rows);
    const secondDone = second.execute().then(
      () => 'sent',
      (error: { code?: string }) => error.code,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(stateOf(first)).not.toBeNull();
    expect(stateOf(second)).toBeNull();
    await second.cancel();
    await expect(firstDone).resolves.toEqual([{ n: 7 }]);
    await expect(secondDone).resolves.toBe('57014');
  });
});

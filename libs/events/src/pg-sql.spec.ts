import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TEST_DATABASE_URL } from '@service/testing';
import { ONE_OFF_STATEMENT, PgPoolSql } from './pg-sql.js';

// One connection, so every statement meets the same session's prepared statements.
let db: PgPoolSql;

beforeAll(() => {
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: 'public', max: 1, preparedStatements: 'probe' });
});

afterAll(async () => {
  await db?.end();
});

describe('PgPoolSql with preparedStatements', () => {
  it('prepares each statement once per connection, but those marked one-off', async () => {
    expect(await db.$queryRawUnsafe(`SELECT $1::int AS n`, 1)).toEqual([{ n: 1 }]);
    expect(await db.$queryRawUnsafe(`SELECT $1::int AS n`, 2)).toEqual([{ n: 2 }]);
    expect(await db.$queryRawUnsafe(`${ONE_OFF_STATEMENT}SELECT $1::int + 1 AS n`, 3)).toEqual([{ n: 4 }]);
    const prepared = await db.$queryRawUnsafe<{ name: string; statement: string }[]>(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`);
    expect(prepared.map((row) => row.statement)).toEqual([`SELECT $1::int AS n`, `SELECT name, statement FROM pg_prepared_statements ORDER BY name`]);
    expect(prepared.map((row) => row.name)).toEqual(['probe_1', 'probe_2']);
  });
});

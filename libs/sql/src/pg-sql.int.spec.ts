import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { countRoundTrips, eventually, type RoundTrips, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { ONE_OFF_STATEMENT, PgPoolSql, sqlLiteral } from './pg-sql.js';

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

describe('sqlLiteral', () => {
  const cases: [string, unknown, string][] = [
    ['a quote', "it's", 'text'],
    ['backslashes', 'C:\\path\\n \\\\', 'text'],
    ['placeholders and dollar quotes', '$1, $$x$$ and $2', 'text'],
    ['unicode', '€ — 😀', 'text'],
    ['an empty string', '', 'text'],
    ['null', null, 'text'],
    ['an array of awkward strings', ['a,b', 'c"d', 'e\\f', null, '{x}', 'NULL', ' '], 'text[]'],
    ['a negative fraction', -1.5, 'numeric'],
    ['a bigint', 12345678901234567890n, 'numeric'],
    ['a boolean', false, 'boolean'],
    ['a date', new Date('2026-11-24T23:44:26.123Z'), 'timestamptz'],
    ['a JSON text', JSON.stringify({ note: "it's \\ \"x\"" }), 'jsonb'],
  ];
  it.each(cases)('writes %s as a bound value reads', async (_, value, type) => {
    const text = `SELECT $1::${type} AS v`;
    const bound = await db.$queryRawUnsafe<{ v: unknown }[]>(text, value);
    const [literal] = await db.$transaction((tx) => tx.$queryBatch([{ text, values: [value] }]));
    expect(literal).toEqual(bound);
  });

  it('leaves to binding what no literal writes', () => {
    expect([{ a: 1 }, [[1]], Number.NaN, Buffer.from('x'), new Date(Number.NaN)].map(sqlLiteral)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('PgPoolSql transactions', () => {
  let holder: pg.Client;
  let trips: RoundTrips;

  beforeAll(async () => {
    await db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS pipelined_probe (id int PRIMARY KEY, n int NOT NULL)`);
    holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    trips = countRoundTrips();
  });

  afterAll(async () => {
    trips?.restore();
    await holder?.end();
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS pipelined_probe`);
  });

  beforeEach(async () => {
    await db.$executeRawUnsafe(`DELETE FROM pipelined_probe`);
    await db.$executeRawUnsafe(`INSERT INTO pipelined_probe (id, n) VALUES (1, 0)`);
  });

  it('sends BEGIN with the first statement and the deferred writes with COMMIT', async () => {
    trips.reset();
    const read = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ n: number }[]>(`SELECT n FROM pipelined_probe WHERE id = $1 FOR UPDATE`, 1);
      tx.$executeDeferred(`UPDATE pipelined_probe SET n = n + $2 WHERE id = $1`, 1, 5);
      tx.$executeDeferred(`INSERT INTO pipelined_probe (id, n) VALUES ($1, $2)`, 2, 7);
      return rows;
    });
    expect(trips.count).toBe(2);
    expect(read).toEqual([{ n: 0 }]);
    expect(await db.$queryRawUnsafe(`SELECT id, n FROM pipelined_probe ORDER BY id`)).toEqual([
      { id: 1, n: 5 },
      { id: 2, n: 7 },
    ]);
  });

  it('runs a deferred write before the statement that follows it, in the same round trip', async () => {
    trips.reset();
    const [[row]] = await db.$transaction(async (tx) => {
      tx.$executeDeferred(`UPDATE pipelined_probe SET n = $2 WHERE id = $1`, 1, 3);
      return tx.$queryBatch([{ text: `SELECT n FROM pipelined_probe WHERE id = $1`, values: [1] }]);
    });
    expect(trips.count).toBe(2);
    expect(row).toEqual({ n: 3 });
  });

  it('reads, in the batch that takes a lock, what the lock holder committed while it waited', async () => {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM public.pipelined_probe WHERE id = 1 FOR UPDATE`);
    await holder.query(`UPDATE public.pipelined_probe SET n = 41 WHERE id = 1`);
    const batch = db.$transaction((tx) =>
      tx.$queryBatch([
        { text: `SELECT id FROM pipelined_probe WHERE id = $1 FOR UPDATE`, values: [1] },
        { text: `SELECT n FROM pipelined_probe WHERE id = $1`, values: [1] },
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await holder.query('COMMIT');
    expect(await batch).toEqual([[{ id: 1 }], [{ n: 41 }]]);
  });

  it('fails the transaction, and undoes it, when a deferred write fails at COMMIT', async () => {
    const failed = db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE pipelined_probe SET n = $2 WHERE id = $1`, 1, 9);
      tx.$executeDeferred(`INSERT INTO pipelined_probe (id, n) VALUES ($1, $2)`, 1, 1);
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await db.$queryRawUnsafe(`SELECT n FROM pipelined_probe WHERE id = 1`)).toEqual([{ n: 0 }]);
  });

  it('binds, one by one, a round trip holding a value no literal writes', async () => {
    const [[row]] = await db.$transaction(async (tx) => {
      tx.$executeDeferred(`UPDATE pipelined_probe SET n = $2 WHERE id = $1`, 1, 4);
      return tx.$queryBatch([{ text: `SELECT n, $2::jsonb AS j FROM pipelined_probe WHERE id = $1`, values: [1, { a: [1, 2] }] }]);
    });
    expect(row).toEqual({ n: 4, j: { a: [1, 2] } });
  });

  it('does not trust a connection whose round trip failed while preparing', async () => {
    const broken = `SELECT $1::int AS n FROM`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(db.$transaction((tx) => tx.$queryRawUnsafe(broken, 1))).rejects.toThrow(/syntax error/);
    }
    expect(await db.$transaction((tx) => tx.$queryRawUnsafe(`SELECT $1::int AS n`, 8))).toEqual([{ n: 8 }]);
  });

  it('runs a batch outside a transaction in one round trip, committed when it answers', async () => {
    trips.reset();
    const [[one], [two]] = await db.$queryBatch([
      { text: `SELECT n FROM pipelined_probe WHERE id = $1`, values: [1] },
      { text: `INSERT INTO pipelined_probe (id, n) VALUES ($1, $2) RETURNING id`, values: [3, 30] },
    ]);
    expect(trips.count).toBe(1);
    expect([one, two]).toEqual([{ n: 0 }, { id: 3 }]);
    expect((await holder.query(`SELECT n FROM public.pipelined_probe WHERE id = 3`)).rows).toEqual([{ n: 30 }]);
  });

  it('fails a transaction whose connection the server ends between two statements, and goes on', async () => {
    // Unlistened, the checked-out connection's error would be an 'error' event that ends the process.
    const failure = await db
      .$transaction(async (tx) => {
        const [session] = await tx.$queryRawUnsafe<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`);
        await holder.query(`SELECT pg_terminate_backend($1)`, [session?.pid]);
        await eventually(async () => (await holder.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [session?.pid])).rowCount, (count) => count === 0);
        return tx.$queryRawUnsafe(`SELECT 1`);
      })
      .catch((error: unknown) => error);
    // Which of these the next statement meets depends on when the client reads the server's
    // 57P01 notice against the socket's close: each is the transaction failing, not the process.
    expect(String(failure)).toMatch(/Connection terminated unexpectedly|not queryable|terminating connection due to administrator command/);
    expect(await db.$queryRawUnsafe(`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
  });

  it('sends nothing for a transaction without statements', async () => {
    trips.reset();
    expect(await db.$transaction(async () => 'done')).toBe('done');
    expect(trips.count).toBe(0);
  });
});

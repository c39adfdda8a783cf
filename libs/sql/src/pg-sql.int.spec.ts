import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { countRoundTrips, eventually, type RoundTrips, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { ONE_OFF_STATEMENT, PgPoolSql } from './pg-sql.js';

// One connection, so every statement meets the same session's prepared statements.
let db: PgPoolSql;
let holder: pg.Client;

beforeAll(async () => {
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: 'public', max: 1 });
  holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await holder.connect();
});

afterAll(async () => {
  await db?.end();
  await holder?.end();
});

describe('PgPoolSql statements', () => {
  it('prepares each statement once per connection, but those marked one-off', async () => {
    expect(await db.$queryRawUnsafe(`SELECT $1::int AS n`, 1)).toEqual([{ n: 1 }]);
    expect(await db.$queryRawUnsafe(`SELECT $1::int AS n`, null)).toEqual([{ n: null }]);
    expect(await db.$queryRawUnsafe(`SELECT $1::int AS n`, '2')).toEqual([{ n: 2 }]);
    expect(await db.$queryRawUnsafe(`${ONE_OFF_STATEMENT}SELECT $1::int + 1 AS n`, 3)).toEqual([{ n: 4 }]);
    const prepared = await db.$queryRawUnsafe<{ name: string; statement: string }[]>(
      `SELECT name, statement FROM pg_prepared_statements ORDER BY statement`,
    );
    expect(prepared.map((row) => row.statement)).toEqual([
      `SELECT $1::int AS n`,
      `SELECT name, statement FROM pg_prepared_statements ORDER BY statement`,
    ]);
  });

  it('answers an affected row count and rows as arrays', async () => {
    expect(await db.$executeRawUnsafe(`SELECT generate_series(1, $1::int)`, 3)).toBe(3);
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT 1 AS n WHERE false`);
    expect(Array.isArray(rows)).toBe(true);
    expect(rows).toEqual([]);
  });
});

describe('PgPoolSql connections', () => {
  it('tells onIdleError of an idle connection the server ends, and reconnects on the next use', async () => {
    const idleErrors: unknown[] = [];
    const sql = new PgPoolSql({
      connectionString: TEST_DATABASE_URL,
      schema: 'public',
      max: 1,
      onIdleError: (error) => idleErrors.push(error),
    });
    try {
      const [session] = await sql.$queryRawUnsafe<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`);
      await holder.query(`SELECT pg_terminate_backend($1)`, [session?.pid]);
      await eventually(
        () => idleErrors.length,
        (count) => count === 1,
      );
      expect(idleErrors).toEqual([expect.objectContaining({ code: 'CONNECTION_CLOSED' })]);
      expect(await sql.$queryRawUnsafe(`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
    } finally {
      await sql.end();
    }
  });

  it('fails within timeoutMs, as a connection not made in time, on a server that accepts and never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const sql = new PgPoolSql({ connectionString: `postgresql://postgres@127.0.0.1:${port}/none`, schema: 'public', timeoutMs: 200 });
    try {
      const started = Date.now();
      await expect(sql.$queryRawUnsafe(`SELECT 1`)).rejects.toMatchObject({ code: 'CONNECT_TIMEOUT' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await sql.end();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('PgPoolSql values, as pg binds and reads them', () => {
  const cases: [string, unknown, string][] = [
    ['a quote', "it's", 'text'],
    ['backslashes', 'C:\\path\\n \\\\', 'text'],
    ['placeholders and dollar quotes', '$1, $$x$$ and $2', 'text'],
    ['unicode', '€ — 😀', 'text'],
    ['an empty string', '', 'text'],
    ['null', null, 'text'],
    ['undefined', undefined, 'text'],
    ['an array of awkward strings', ['a,b', 'c"d', 'e\\f', null, '{x}', 'NULL', ' '], 'text[]'],
    [
      'a nested array',
      [
        [1, null],
        [3, 4],
      ],
      'int[]',
    ],
    ['an array of dates', [new Date('2026-01-01T00:00:00.000Z'), null], 'timestamptz[]'],
    ['an array of uuids', ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'], 'uuid[]'],
    ['an empty array', [], 'text[]'],
    ['an integer', 42, 'int'],
    ['an integer as text', '42', 'int'],
    ['a negative fraction', -1.5, 'numeric'],
    ['a bigint', 12345678901234567890n, 'numeric'],
    ['a bigint as int8', 9007199254740993n, 'int8'],
    ['a boolean', false, 'boolean'],
    ['a boolean as text', 'true', 'boolean'],
    ['a date', new Date('2026-11-24T23:44:26.123Z'), 'timestamptz'],
    ['a timestamp as text, in microseconds', '2026-11-24 23:44:26.123456+00', 'timestamptz'],
    ['a JSON text', JSON.stringify({ note: 'it\'s \\ "x"' }), 'jsonb'],
    ['a JSON array text', JSON.stringify([1, 'two']), 'json'],
    ['an object', { a: [1, 2] }, 'jsonb'],
    ['a buffer', Buffer.from([0, 1, 255]), 'bytea'],
    ['a float', 0.1, 'float8'],
  ];
  it.each(cases)('binds and reads %s as pg does', async (_, value, type) => {
    const text = `SELECT $1::${type} AS v`;
    const byPg = (await holder.query(text, [value])).rows;
    expect(await db.$queryRawUnsafe(text, value)).toEqual(byPg);
    const [batched] = await db.$transaction((tx) => tx.$queryBatch([{ text, values: [value] }]));
    expect(batched).toEqual(byPg);
  });

  it('reads the types callers read as pg does', async () => {
    const text = `SELECT 1::int2 AS i2, 2::int4 AS i4, 3::int8 AS i8, 1.50::numeric AS num, 2.5::float4 AS f4, true AS b, 'x'::text AS t,
      '2026-01-02T03:04:05.678Z'::timestamptz AS ts, '2026-01-02 03:04:05'::timestamp AS tsl, '{"a":1}'::jsonb AS jb, '[1]'::json AS j,
      ARRAY['a','b']::text[] AS ta, ARRAY[gen_random_uuid()]::uuid[] AS ua, ARRAY[1,2]::int4[] AS ia, ARRAY[1,2]::int8[] AS la,
      '\\x00ff'::bytea AS by, NULL::text AS nothing, 'abc'::varchar AS vc, '00000000-0000-4000-8000-000000000001'::uuid AS u`;
    const [byPg] = (await holder.query(text.replace('gen_random_uuid()', `'00000000-0000-4000-8000-000000000003'::uuid`))).rows;
    const [ours] = await db.$queryRawUnsafe<unknown[]>(text.replace('gen_random_uuid()', `'00000000-0000-4000-8000-000000000003'::uuid`));
    expect(ours).toEqual(byPg);
  });
});

describe('PgPoolSql transactions', () => {
  let trips: RoundTrips;

  beforeAll(async () => {
    await db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS pipelined_probe (id int PRIMARY KEY, n int NOT NULL)`);
    trips = countRoundTrips();
  });

  afterAll(async () => {
    trips?.restore();
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

  it('binds an object as JSON in a round trip that carries deferred writes', async () => {
    const [[row]] = await db.$transaction(async (tx) => {
      tx.$executeDeferred(`UPDATE pipelined_probe SET n = $2 WHERE id = $1`, 1, 4);
      return tx.$queryBatch([{ text: `SELECT n, $2::jsonb AS j FROM pipelined_probe WHERE id = $1`, values: [1, { a: [1, 2] }] }]);
    });
    expect(row).toEqual({ n: 4, j: { a: [1, 2] } });
  });

  it('goes on after a transaction whose statement failed to prepare', async () => {
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
        await eventually(
          async () => (await holder.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [session?.pid])).rowCount,
          (count) => count === 0,
        );
        return tx.$queryRawUnsafe(`SELECT 1`);
      })
      .catch((error: unknown) => error);
    // Which of these the next statement meets depends on when the client reads the server's
    // 57P01 notice against the socket's close: each is the transaction failing, not the process
    // (never the statement run on a new connection, outside the transaction).
    expect(String(failure)).toMatch(/CONNECTION_CLOSED|ECONNRESET|terminating connection due to administrator command/);
    expect(await db.$queryRawUnsafe(`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
  });

  it('sends nothing for a transaction without statements', async () => {
    trips.reset();
    expect(await db.$transaction(async () => 'done')).toBe('done');
    expect(trips.count).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PgPoolSql } from './pg-sql.js';
import type { Query } from './sql.js';
import { countRoundTrips, type RoundTrips, TEST_DATABASE_URL } from '@service/testing';
import { SameAnswers, TurnReads } from './turn-reads.js';

let sql: PgPoolSql;
let trips: RoundTrips;

beforeAll(() => {
  sql = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: 'public', max: 2 });
  trips = countRoundTrips();
});

afterAll(async () => {
  trips?.restore();
  await sql?.end();
});

/** `SELECT $1::int AS n`, read into a fresh object. */
const number = (n: unknown): Query<{ n: number }> => ({
  text: `SELECT $1::int AS n`,
  values: [n],
  read: (rows) => ({ ...(rows[0] as { n: number }) }),
});

describe('TurnReads', () => {
  it('reads a turn in one round trip, an identical read once, its requests sharing one result', async () => {
    const reads = new TurnReads(sql);
    await reads.read(number(0)); // the pool's connection and the statement's PREPARE
    trips.reset();
    const [first, same, other] = await Promise.all([reads.read(number(1)), reads.read(number(1)), reads.read(number(2))]);
    expect(trips.count).toBe(1);
    expect([first, same, other]).toEqual([{ n: 1 }, { n: 1 }, { n: 2 }]);
    expect(first).toBe(same);
    expect(first).not.toBe(other);
  });

  it("fails only the requests of a statement that fails, not the turn's other reads", async () => {
    const reads = new TurnReads(sql);
    const [good, bad, alsoGood] = await Promise.allSettled([
      reads.read(number(3)),
      reads.read(number('not a number')),
      reads.read(number(4)),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: { n: 3 } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: '22P02' } });
    expect(alsoGood).toEqual({ status: 'fulfilled', value: { n: 4 } });
  });

  it('fails every read of a turn at once, without retrying them one by one, when the round trip fails for all', async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    const down = new PgPoolSql({ connectionString: 'postgres://nobody@127.0.0.1:1/none', schema: 'public' });
    const batches = jest.spyOn(down, '$queryBatch');
    try {
      const reads = new TurnReads(down);
      const outcomes = await Promise.allSettled([reads.read(number(5)), reads.read(number(6))]);
      expect(outcomes).toEqual([
        { status: 'rejected', reason: expect.objectContaining({ code: 'ECONNREFUSED' }) },
        { status: 'rejected', reason: expect.objectContaining({ code: 'ECONNREFUSED' }) },
      ]);
      expect(batches).toHaveBeenCalledTimes(1);
    } finally {
      await down.end();
    }
  });

  it('sees what was committed before the read was asked for', async () => {
    await sql.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS turn_reads_probe (id int PRIMARY KEY, n int NOT NULL)`);
    try {
      const reads = new TurnReads(sql);
      const probe: Query<number[]> = {
        text: `SELECT n FROM turn_reads_probe WHERE id = $1`,
        values: [1],
        read: (rows) => rows.map((row) => (row as { n: number }).n),
      };
      expect(await reads.read(probe)).toEqual([]);
      await sql.$executeRawUnsafe(`INSERT INTO turn_reads_probe (id, n) VALUES (1, 7)`);
      expect(await reads.read(probe)).toEqual([7]);
    } finally {
      await sql.$executeRawUnsafe(`DROP TABLE IF EXISTS turn_reads_probe`);
    }
  });
});

describe('SameAnswers', () => {
  it('builds one answer for the same source and key; another for another key or source', () => {
    const answers = new SameAnswers<{ n: number }>();
    const rows = [{ id: 1 }];
    let built = 0;
    const build = () => ({ n: ++built });
    const first = answers.of(rows, 'limit=2', build);
    expect(answers.of(rows, 'limit=2', build)).toBe(first);
    expect(answers.of(rows, 'limit=3', build)).toEqual({ n: 2 });
    expect(answers.of([{ id: 1 }], 'limit=2', build)).toEqual({ n: 3 });
    expect(built).toBe(3);
  });
});

import type { Query, Statement } from './sql.js';

/** What runs the reads: several statements in one round trip (`PgPoolSql`). */
export interface BatchReader {
  $queryBatch(statements: readonly Statement[]): Promise<unknown[][]>;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Most statements one round trip carries; a larger turn's reads go in several. */
const MOST_PER_ROUND_TRIP = 64;

/**
 * Reads of one event-loop turn (a page of wallets, ...) in one round trip: under load the service
 * takes several requests from one NATS socket read, and each statement of its own cost a round trip
 * and a wake-up of PostgreSQL and of this process (the socket writes of `pg`'s queries are then a
 * large share of a service's CPU on a list; measurements: tools/bench/README.md).
 * The reads are collected until the turn's I/O callbacks and promise chains have run
 * (`setImmediate`); identical statements (same text, same values) are read once and their
 * requests get the same result (`query.read` of the rows, once): treat it as read-only. Requests
 * that share a result may share the answer built from it too ({@link SameAnswers}). Each read
 * starts after its request arrived, so it sees every write committed before it, as a read of its
 * own would. A round trip that one of its statements failed is retried one statement at a time,
 * so one request's failure is only its own; one that failed for all (no connection, a timeout)
 * fails all its requests at once, within the wait of one try.
 */
export class TurnReads {
  private waiting = new Map<string, { query: Query<unknown>; waiters: Waiter[] }>();

  constructor(private readonly db: BatchReader) {}

  read<T>(query: Query<T>): Promise<T> {
    const key = `${query.text}\u0000${keyOf(query.values)}`;
    return new Promise<T>((resolve, reject) => {
      let shared = this.waiting.get(key);
      if (!shared) {
        shared = { query, waiters: [] };
        this.waiting.set(key, shared);
        if (this.waiting.size === 1) setImmediate(() => this.flush());
      }
      shared.waiters.push({ resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(): void {
    const reads = [...this.waiting.values()];
    this.waiting = new Map();
    for (let start = 0; start < reads.length; start += MOST_PER_ROUND_TRIP) void this.run(reads.slice(start, start + MOST_PER_ROUND_TRIP));
  }

  private async run(reads: { query: Query<unknown>; waiters: Waiter[] }[]): Promise<void> {
    let rows: unknown[][];
    try {
      rows = await this.db.$queryBatch(reads.map((read) => read.query));
    } catch (error) {
      if (reads.length > 1 && isStatementError(error)) {
        for (const read of reads) void this.run([read]);
        return;
      }
      for (const read of reads) rejectAll(read.waiters, error);
      return;
    }
    reads.forEach((read, index) => {
      // Rows that cannot be read fail only their requests.
      let result: unknown;
      try {
        result = read.query.read(rows[index] ?? []);
      } catch (error) {
        return rejectAll(read.waiters, error);
      }
      for (const waiter of read.waiters) waiter.resolve(result);
    });
  }
}

/**
 * Whether a failed round trip failed because of one of its statements (bad input, a missing
 * object, a constraint), so the others may well succeed alone. Not for a connection that failed
 * or timed out, a cancelled statement (`statement_timeout`) or a server short of resources: one by
 * one those would fail again, each after its own wait.
 */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // SQLSTATE classes 08 connection exception, 53 insufficient resources, 57 operator intervention, 58 system error.
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|53|57|58)/.test(code);
}

function rejectAll(waiters: readonly Waiter[], error: unknown): void {
  for (const waiter of waiters) waiter.reject(error);
}

/** The values as a key: JSON, bigints marked (JSON has none). */
function keyOf(values: readonly unknown[]): string {
  return JSON.stringify(values, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

/**
 * The answers built from the results a turn's identical reads share ({@link TurnReads} hands them
 * all the same object): requests that read the same `source` and ask the same question (`key`)
 * get one answer, built once; a request asking anything else, or reading other rows, builds its
 * own. An answer is kept as long as its source is; treat it as read-only.
 */
export class SameAnswers<A> {
  private readonly bySource = new WeakMap<object, Map<string, A>>();

  of(source: object, key: string, build: () => A): A {
    let answers = this.bySource.get(source);
    if (!answers) {
      answers = new Map();
      this.bySource.set(source, answers);
    }
    if (answers.has(key)) return answers.get(key) as A;
    const answer = build();
    answers.set(key, answer);
    return answer;
  }
}

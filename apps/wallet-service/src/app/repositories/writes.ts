import { type BindParameter, executeWrite, ONE_OFF_STATEMENT, type SqlExecutor, sqlLiteral } from '@service/events';

/**
 * The writes of one step of a transaction gathered into one statement of data-modifying CTEs, so
 * they cost one round trip (and one pass through Prisma) instead of one each: under the wallet's
 * row lock every round trip is time the next request on that wallet waits. The parts run on one
 * snapshot and must not depend on each other's effects or change the same row twice. In a
 * pipelined transaction (`PipelinedSqlExecutor`) the statement goes with the next round trip
 * (the next read, or the COMMIT) instead of one of its own.
 */
export class Writes {
  private readonly parts: string[] = [];
  private readonly values: unknown[] = [];

  /**
   * `oneOff`: the statement's shape depends on what a batch holds, so it is not prepared (a
   * prepared statement per shape would stay on every connection); a single step's shapes are few.
   * Its values are written into the text as literals, so it can share a round trip too (an
   * unprepared statement is parsed and planned on each call either way).
   */
  constructor(private readonly options: { oneOff?: boolean } = {}) {}

  /** Adds a parameter; returns its placeholder (a one-off's: its literal) with `cast`. */
  readonly bind: BindParameter = (value, cast) => {
    const literal = this.options.oneOff ? sqlLiteral(value) : undefined;
    return `${literal ?? `$${this.values.push(value)}`}${cast}`;
  };

  /** One INSERT, UPDATE or DELETE whose values went through {@link bind}. */
  add(sql: string): void {
    this.parts.push(sql);
  }

  async run(tx: SqlExecutor): Promise<void> {
    if (this.parts.length === 0) return;
    const statement = `${this.options.oneOff ? ONE_OFF_STATEMENT : ''}WITH ${this.parts.map((sql, index) => `w${index} AS (${sql})`).join(', ')} SELECT 1`;
    this.parts.length = 0;
    await executeWrite(tx, statement, ...this.values.splice(0));
  }
}

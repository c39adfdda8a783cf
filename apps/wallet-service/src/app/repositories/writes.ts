import type { DomainEventType } from '@service/contracts';
import { type BindParameter, type NewEvent, outboxInsert } from '@service/events';
import { executeWrite } from '@service/sql';
import type { WalletTx } from './wallet-sql.js';

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

  /** Adds a parameter; returns its placeholder with `cast`. */
  readonly bind: BindParameter = (value, cast) => `$${this.values.push(value)}${cast}`;

  /** One INSERT, UPDATE or DELETE whose values went through {@link bind}. */
  add(sql: string): void {
    this.parts.push(sql);
  }

  /**
   * The outbox row of an event the use case built (its type, organization and payload), written
   * with the statement's other parts, in their order: the repositories write events, they do not
   * decide them. The event's id.
   */
  addEvent<T extends DomainEventType>(event: NewEvent<T>): string {
    const { sql, id } = outboxInsert(this.bind, event);
    this.add(sql);
    return id;
  }

  async run(tx: WalletTx): Promise<void> {
    if (this.parts.length === 0) return;
    const statement = `WITH ${this.parts.map((sql, index) => `w${index} AS (${sql})`).join(', ')} SELECT 1`;
    this.parts.length = 0;
    await executeWrite(tx, statement, ...this.values.splice(0));
  }
}

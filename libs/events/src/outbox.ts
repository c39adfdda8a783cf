import { randomUUID } from 'node:crypto';
import type { DomainEventType, EventPayloadOf } from '@service/contracts';
import { currentTraceparent } from '@service/tracing';
import type { SqlExecutor } from '@service/sql';

/** An event to record: its payload is the one its type carries (`EventPayloadOf` in the contracts). */
export interface NewEvent<T extends DomainEventType> {
  readonly type: T;
  readonly orgId: string;
  readonly payload: EventPayloadOf<T>;
}

/**
 * Records an event in the same transaction as the state change it describes; the relay publishes
 * it after commit, with the active span's trace context (`trace_context`, null when tracing is off)
 * as its `traceparent` header. Returns the event id, which is also its `Nats-Msg-Id` (each webhook delivery of it has an id of its own).
 */
export async function enqueueEvent<T extends DomainEventType>(tx: SqlExecutor, event: NewEvent<T>): Promise<string> {
  const values: unknown[] = [];
  const { sql, id } = outboxInsert((value, cast) => `$${values.push(value)}${cast}`, event);
  await tx.$executeRawUnsafe(sql, ...values);
  return id;
}

/** Adds `value` as a parameter of the statement being built and returns its placeholder with `cast` (`$3::uuid`). */
export type BindParameter = (value: unknown, cast: string) => string;

/**
 * {@link enqueueEvent}'s INSERT as SQL text whose values go through `bind`, for a caller that
 * writes the event together with its other changes in one statement (one round trip); the id is
 * the event's. `occurred_at` is the time of the insert (`clock_timestamp()`), not the column's
 * default `now()`, which is the transaction's start: a transaction that waited for a wallet's
 * lock before writing its event did not make the event occur earlier, and the relay's publish
 * lag counts from `occurred_at`.
 */
export function outboxInsert<T extends DomainEventType>(bind: BindParameter, event: NewEvent<T>): { sql: string; id: string } {
  const id = randomUUID();
  const sql =
    'INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ' +
    `(${bind(id, '::uuid')}, ${bind(event.type, '')}, ${bind(event.orgId, '')}, ${bind(JSON.stringify(event.payload), '::jsonb')}, ${bind(currentTraceparent() ?? null, '::text')}, clock_timestamp())`;
  return { sql, id };
}

/**
 * The outbox rows no relay has published yet, as a FROM clause (alias `o` for the rows), in the
 * schema named (quoted) or on the search path: every committed row after the relay's position.
 * For counts: the metrics' waiting gauge, tests and tools waiting for the outbox to drain.
 */
export function unpublishedOutboxRows(schema?: string): string {
  const table = (name: string) => (schema ? `"${schema}".${name}` : name);
  return `${table('outbox_events')} o JOIN ${table('outbox_relay')} r ON r.name = 'relay' AND (o.txid, o.seq) > (r.last_txid, r.last_seq)`;
}

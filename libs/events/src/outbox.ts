import { randomUUID } from 'node:crypto';
import type { DomainEventType, EventPayloadOf } from '@service/contracts';
import { currentTraceparent } from '@service/tracing';
import type { SqlExecutor } from './sql.js';

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
  const id = randomUUID();
  await tx.$executeRawUnsafe(
    'INSERT INTO outbox_events (id, type, org_id, payload, trace_context) VALUES ($1::uuid, $2, $3, $4::jsonb, $5)',
    id,
    event.type,
    event.orgId,
    JSON.stringify(event.payload),
    currentTraceparent() ?? null,
  );
  return id;
}

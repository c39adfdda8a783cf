import { randomUUID } from 'node:crypto';
import type { DomainEventType } from '@service/contracts';
import type { SqlExecutor } from './sql.js';

export interface NewEvent<Payload> {
  readonly type: DomainEventType;
  readonly orgId: string;
  readonly payload: Payload;
}

/**
 * Records an event in the same transaction as the state change it describes; the relay publishes
 * it after commit. Returns the event id, which is also its `Nats-Msg-Id` and `Service-Event-Id`.
 */
export async function enqueueEvent<Payload>(tx: SqlExecutor, event: NewEvent<Payload>): Promise<string> {
  const id = randomUUID();
  await tx.$executeRawUnsafe(
    'INSERT INTO outbox_events (id, type, org_id, payload) VALUES ($1::uuid, $2, $3, $4::jsonb)',
    id,
    event.type,
    event.orgId,
    JSON.stringify(event.payload),
  );
  return id;
}

import { randomUUID } from 'node:crypto';
import { ALL_ORGANIZATIONS, type DomainEvent, type WebhookFamily } from '@service/contracts';
import type { SqlExecutor } from '@service/events';

/**
 * The exact body a registration receives: portfolio wallet events go out as the payload the
 * wallet service wrote (`{event, observedAt, walletId, <resource>}`); gtoken events in the
 * envelope `{id, type, createdAt, data}` whose `id` is the delivery's Service-Event-Id.
 */
export function deliveryBody(family: string, event: Pick<DomainEvent, 'type' | 'occurredAt' | 'payload'>, deliveryId: string): string {
  if (family === 'gvault') {
    return JSON.stringify({ id: deliveryId, type: event.type, createdAt: event.occurredAt, data: event.payload });
  }
  return JSON.stringify(event.payload);
}

/**
 * Records one pending delivery per active registration of the event's organization subscribed to
 * its type, inside the consumer's transaction; a redelivered event adds nothing. Events about
 * shared onchain state (gtoken allowlists) carry `ALL_ORGANIZATIONS` and reach every organization's
 * subscribed registrations.
 */
export async function fanOut(tx: SqlExecutor, event: DomainEvent): Promise<number> {
  const registrations = await tx.$queryRawUnsafe<{ id: string; family: WebhookFamily; org_id: string }[]>(
    `SELECT id::text AS id, family, org_id FROM registrations
      WHERE ($1 = $3 OR org_id = $1) AND deleted_at IS NULL AND $2 = ANY(events)`,
    event.orgId,
    event.type,
    ALL_ORGANIZATIONS,
  );
  if (registrations.length === 0) return 0;
  const ids = registrations.map(() => randomUUID());
  return tx.$executeRawUnsafe(
    `INSERT INTO deliveries (id, org_id, family, registration_id, source_event_id, event_type, body, status, next_attempt_at, updated_at)
     SELECT d.id, d.org_id, d.family, d.registration_id, $1::uuid, $2, d.body, 'pending', now(), now()
       FROM unnest($3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::text[]) AS d(id, family, registration_id, body, org_id)
     ON CONFLICT (registration_id, source_event_id) DO NOTHING`,
    event.id,
    event.type,
    ids,
    registrations.map((registration) => registration.family),
    registrations.map((registration) => registration.id),
    registrations.map((registration, index) => deliveryBody(registration.family, event, ids[index] as string)),
    registrations.map((registration) => registration.org_id),
  );
}

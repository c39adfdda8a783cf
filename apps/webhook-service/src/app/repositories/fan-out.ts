import { ALL_ORGANIZATIONS, type DomainEvent } from '@service/contracts';
import type { SqlExecutor } from '@service/events';
import { deliveryBody } from '../domain/delivery-body.js';

/**
 * Records a batch of events in one statement (atomic on its own): each event that an active
 * registration subscribes to and that is not yet in `processed_events` for `consumer` is added
 * there, and gets one pending delivery per active registration of its organization subscribed to
 * its type. An event already processed adds nothing. An event no registration subscribes to
 * leaves nothing behind, not even a `processed_events` row (most wallet events of most
 * organizations: eight an allocation), so a redelivery of it is looked at again: a registration
 * made meanwhile gets it, once, as it would have had the event come later. Events about shared
 * onchain state (gtoken allowlists) carry `ALL_ORGANIZATIONS` and reach every organization's
 * subscribed registrations. The gtoken envelope starts with the delivery's own id, which the
 * database generates: the body is the envelope's text with that id put in. Returns the
 * registrations that got a delivery (once per delivery).
 */
const FAN_OUT_SQL = `
WITH events AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $9::text[])
    AS e(event_id, type, org_id, body, envelope_head, envelope_tail, trace_context)
), subscribed AS (
  SELECT DISTINCT e.event_id FROM events e
   WHERE EXISTS (SELECT FROM registrations g WHERE g.org_id = e.org_id AND g.deleted_at IS NULL AND e.type = ANY (g.events))
      OR (e.org_id = $8 AND EXISTS (SELECT FROM registrations g WHERE g.deleted_at IS NULL AND e.type = ANY (g.events)))
), fresh AS (
  INSERT INTO processed_events (consumer, event_id) SELECT $1, event_id FROM subscribed
  ON CONFLICT DO NOTHING
  RETURNING event_id
), targets AS (
  SELECT e.*, g.id AS registration_id, g.family, g.org_id AS registration_org_id
    FROM events e JOIN fresh f ON f.event_id = e.event_id
    JOIN registrations g ON g.org_id = e.org_id
   WHERE e.org_id <> $8 AND g.deleted_at IS NULL AND e.type = ANY (g.events)
  UNION ALL
  SELECT e.*, g.id, g.family, g.org_id
    FROM events e JOIN fresh f ON f.event_id = e.event_id
    JOIN registrations g ON g.deleted_at IS NULL AND e.type = ANY (g.events)
   WHERE e.org_id = $8
), numbered AS (
  SELECT gen_random_uuid() AS delivery_id, t.* FROM targets t
)
INSERT INTO deliveries (id, org_id, family, registration_id, source_event_id, event_type, body, status, next_attempt_at, updated_at, trace_context)
SELECT n.delivery_id, n.registration_org_id, n.family, n.registration_id, n.event_id, n.type,
       CASE WHEN n.family = 'gvault' THEN n.envelope_head || n.delivery_id::text || n.envelope_tail ELSE n.body END,
       'pending', now(), now(), n.trace_context
  FROM numbered n
ON CONFLICT (registration_id, source_event_id) DO NOTHING
RETURNING registration_id::text AS registration_id`;

const ENVELOPE_ID_AT = '{"id":"'.length;

/**
 * `traceContexts` (optional) holds, per event id, the traceparent each of its deliveries keeps, so
 * the delivery's span can link to the request that caused the event.
 */
export async function fanOut(
  db: SqlExecutor,
  consumer: string,
  events: readonly DomainEvent[],
  traceContexts?: ReadonlyMap<string, string>,
): Promise<string[]> {
  const unique = [...new Map(events.map((event) => [event.id, event])).values()];
  if (unique.length === 0) return [];
  const envelopes = unique.map((event) => {
    const envelope = deliveryBody('gvault', event, '');
    if (!envelope.startsWith('{"id":""')) throw new Error('the gtoken envelope must start with its id');
    return envelope;
  });
  const rows = await db.$queryRawUnsafe<{ registration_id: string }[]>(
    FAN_OUT_SQL,
    consumer,
    unique.map((event) => event.id),
    unique.map((event) => event.type),
    unique.map((event) => event.orgId),
    unique.map((event) => deliveryBody('webhooks', event, '')),
    envelopes.map((envelope) => envelope.slice(0, ENVELOPE_ID_AT)),
    envelopes.map((envelope) => envelope.slice(ENVELOPE_ID_AT)),
    ALL_ORGANIZATIONS,
    unique.map((event) => traceContexts?.get(event.id) ?? null),
  );
  return rows.map((row) => row.registration_id);
}

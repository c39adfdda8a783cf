import { ALL_ORGANIZATIONS, type DomainEvent } from '@service/contracts';
import type { PgSqlExecutor } from '@service/sql';
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
 * database generates: the body is the envelope's text with that id put in.
 *
 * An event may come without its bodies (null), when the caller expects nobody to want it (see
 * {@link UnsubscribedPairs}): such an event is recorded only if nobody does; one that a
 * registration subscribes to after all is left untouched and named in a `needs_body` row, for the
 * caller to send again with its bodies. Rows: `delivery` (the registration that got one, once per
 * delivery), `needs_body` (an event id), `unsubscribed` (an organization and a type that no
 * active registration subscribed to at this statement's snapshot).
 */
const FAN_OUT_SQL = `
WITH events AS (
  SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $9::text[])
    AS e(event_id, type, org_id, body, envelope_head, envelope_tail, trace_context)
), subscribed AS (
  SELECT DISTINCT e.event_id, e.body IS NOT NULL AS has_body FROM events e
   WHERE EXISTS (SELECT FROM registrations g WHERE g.org_id = e.org_id AND g.deleted_at IS NULL AND e.type = ANY (g.events))
      OR (e.org_id = $8 AND EXISTS (SELECT FROM registrations g WHERE g.deleted_at IS NULL AND e.type = ANY (g.events)))
), fresh AS (
  INSERT INTO processed_events (consumer, event_id) SELECT $1, event_id FROM subscribed WHERE has_body
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
), inserted AS (
  INSERT INTO deliveries (id, org_id, family, registration_id, source_event_id, event_type, body, status, next_attempt_at, updated_at, trace_context)
  SELECT n.delivery_id, n.registration_org_id, n.family, n.registration_id, n.event_id, n.type,
         CASE WHEN n.family = 'gvault' THEN n.envelope_head || n.delivery_id::text || n.envelope_tail ELSE n.body END,
         'pending', now(), now(), n.trace_context
    FROM numbered n
  ON CONFLICT (registration_id, source_event_id) DO NOTHING
  RETURNING registration_id
)
SELECT 'delivery' AS kind, registration_id::text AS id, NULL AS type FROM inserted
UNION ALL
SELECT 'needs_body', event_id::text, NULL FROM subscribed WHERE NOT has_body
UNION ALL
SELECT DISTINCT 'unsubscribed', e.org_id, e.type FROM events e WHERE NOT EXISTS (SELECT FROM subscribed s WHERE s.event_id = e.event_id)`;

const ENVELOPE_ID_AT = '{"id":"'.length;

/** Pairs remembered at most; past this the memory starts over (a forgotten pair costs its events' bodies once). */
const MAX_PAIRS = 10_000;

/**
 * The (organization, event type) pairs that no active registration subscribed to when the
 * fan-out last looked. Events of such a pair are sent to the fan-out without their bodies, which
 * are neither built nor sent nor parsed for an event nobody wants (most wallet events of most
 * organizations). The memory is a guess, never the decision: the statement checks subscriptions
 * itself, and an event that turns out to be wanted (a registration made since) is sent again
 * with its bodies and its pair forgotten. Where most events are of such pairs (wallet events nobody
 * subscribes to), the fan-out statement and webhook-service's CPU per event are smaller
 * (measurements: tools/bench/README.md).
 */
export class UnsubscribedPairs {
  private readonly pairs = new Set<string>();

  has(orgId: string, type: string): boolean {
    return this.pairs.has(pairKey(orgId, type));
  }

  add(orgId: string, type: string): void {
    if (this.pairs.size >= MAX_PAIRS) this.pairs.clear();
    this.pairs.add(pairKey(orgId, type));
  }

  delete(orgId: string, type: string): void {
    this.pairs.delete(pairKey(orgId, type));
  }
}

const pairKey = (orgId: string, type: string) => `${type} ${orgId}`;

interface FanOutRow {
  readonly kind: 'delivery' | 'needs_body' | 'unsubscribed';
  readonly id: string;
  readonly type: string | null;
}

/**
 * Records `events` (see {@link FAN_OUT_SQL}) and returns the registrations that got a delivery
 * (once per delivery). `traceContexts` (optional) holds, per event id, the traceparent each of its
 * deliveries keeps, so the delivery's span can link to the request that caused the event.
 * `unsubscribed` (optional): the pairs to send without bodies, kept up to date with what the
 * statement finds.
 */
export async function fanOut(
  db: PgSqlExecutor,
  consumer: string,
  events: readonly DomainEvent[],
  traceContexts?: ReadonlyMap<string, string>,
  unsubscribed?: UnsubscribedPairs,
): Promise<string[]> {
  const unique = [...new Map(events.map((event) => [event.id, event])).values()];
  if (unique.length === 0) return [];
  const bodies = unique.map((event) => (unsubscribed?.has(event.orgId, event.type) ? null : bodiesOf(event)));
  const rows = await db.$queryRawUnsafe<FanOutRow[]>(
    FAN_OUT_SQL,
    consumer,
    unique.map((event) => event.id),
    unique.map((event) => event.type),
    unique.map((event) => event.orgId),
    bodies.map((body) => body?.webhooks ?? null),
    bodies.map((body) => body?.envelopeHead ?? null),
    bodies.map((body) => body?.envelopeTail ?? null),
    ALL_ORGANIZATIONS,
    unique.map((event) => traceContexts?.get(event.id) ?? null),
  );
  const registrations: string[] = [];
  const wanted = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'delivery') registrations.push(row.id);
    else if (row.kind === 'needs_body') wanted.add(row.id);
    else unsubscribed?.add(row.id, row.type as string);
  }
  if (wanted.size === 0) return registrations;
  // Wanted after all: the pair is forgotten and the events go again, with their bodies.
  const again = unique.filter((event) => wanted.has(event.id));
  for (const event of again) unsubscribed?.delete(event.orgId, event.type);
  return [...registrations, ...(await fanOut(db, consumer, again, traceContexts))];
}

/** An event's bodies: the portfolio body, and the gtoken envelope cut where the delivery's id goes. */
function bodiesOf(event: DomainEvent): { webhooks: string; envelopeHead: string; envelopeTail: string } {
  const envelope = deliveryBody('gvault', event, '');
  if (!envelope.startsWith('{"id":""')) throw new Error('the gtoken envelope must start with its id');
  return {
    webhooks: deliveryBody('webhooks', event, ''),
    envelopeHead: envelope.slice(0, ENVELOPE_ID_AT),
    envelopeTail: envelope.slice(ENVELOPE_ID_AT),
  };
}

-- The statements fan-out.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- fanOut(db, 'webhook-deliveries', [an event of org_a, one of ALL_ORGANIZATIONS], traceContexts, unsubscribed)
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
SELECT DISTINCT 'unsubscribed', e.org_id, e.type FROM events e WHERE NOT EXISTS (SELECT FROM subscribed s WHERE s.event_id = e.event_id);

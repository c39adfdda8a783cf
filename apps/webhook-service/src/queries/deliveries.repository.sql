-- The statements deliveries.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- DeliveriesRepository.requeue(registrationId, id)
UPDATE deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
WHERE id = $1::uuid AND registration_id = $2::uuid AND (lease_until IS NULL OR lease_until < now());

-- DeliveriesRepository.insert({id, orgId, family 'webhooks', registrationId, eventType 'webhook.test', body})
INSERT INTO deliveries (id, org_id, family, registration_id, event_type, body, status, next_attempt_at, updated_at)
VALUES ($1::uuid, $2, $3, $4::uuid, $5, $6, 'pending', now(), now());

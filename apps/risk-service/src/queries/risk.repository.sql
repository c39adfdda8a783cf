-- The statements risk.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- RiskRepository.inSourceTransaction(['b', 'a', 'b'])
BEGIN;
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT pg_advisory_xact_lock(hashtext($1));
COMMIT;

-- RiskRepository.heldOrganizations('service-ustb-vault')
SELECT DISTINCT ON (org_id) org_id, expires_at FROM metric_observations
WHERE yield_source_id = $1 AND org_id IS NOT NULL AND recorded_at <= $2
ORDER BY org_id, recorded_at DESC, id DESC;

-- RiskRepository.lockRule('org', id)
SELECT id FROM risk_rules WHERE id = $1::uuid AND org_id = $2 AND deleted_at IS NULL FOR UPDATE;

-- RiskRepository.lockAction('org', id)
SELECT id FROM risk_actions WHERE id = $1::uuid AND org_id = $2 FOR UPDATE;

-- RiskRepository.enqueue(tx, event): the outbox insert
INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp());

-- RiskRepository.insertObservation(tx, reading, observedEventOf(reading)): the row through Prisma (its model API, not here), then its event
INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp());

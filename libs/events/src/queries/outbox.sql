-- The statements outbox.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- enqueueEvent(tx, {type 'portfolio_wallet.status_changed', orgId, payload})
INSERT INTO outbox_events (id, type, org_id, payload, trace_context, occurred_at) VALUES ($1::uuid, $2, $3, $4::jsonb, $5::text, clock_timestamp());

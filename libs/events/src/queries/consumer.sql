-- The statements consumer.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- DurableConsumer, one event: recorded as processed in the transaction that applies it
BEGIN;
INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING;
COMMIT;

-- DurableConsumer, a batch of two events: recorded as processed in one statement
BEGIN;
INSERT INTO processed_events (consumer, event_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id::text;
COMMIT;

-- DurableConsumer with idempotentHandler: only the handler runs in the transaction
BEGIN;
COMMIT;

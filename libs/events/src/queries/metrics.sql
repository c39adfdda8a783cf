-- The statements metrics.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- OutboxMetrics.start(), sampled by a scrape (metricsText()): the outbox rows not yet published
SELECT count(*)::int AS count FROM outbox_events o JOIN outbox_relay r ON r.name = 'relay' AND (o.txid, o.seq) > (r.last_txid, r.last_seq);

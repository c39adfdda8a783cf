-- The statements delivery-metrics.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- watchDueBacklog(sql), sampled by a scrape (metricsText())
SELECT count(*)::int AS count FROM deliveries WHERE status IN ('pending', 'retry_scheduled') AND next_attempt_at <= now();

-- The statements health.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- HealthService.check(): the readiness of the health subject (the gateway's /readyz), on an open NATS connection
SELECT 1;

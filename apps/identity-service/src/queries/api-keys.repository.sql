-- The statements api-keys.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- ApiKeysRepository.claimEnded()
UPDATE api_keys SET end_announced_at = now()
WHERE end_announced_at IS NULL AND (revoked_at IS NOT NULL OR expires_at <= now())
RETURNING id::text AS id;

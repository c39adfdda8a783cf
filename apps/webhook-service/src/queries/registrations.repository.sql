-- The statements registrations.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- RegistrationsRepository.lockFamily(tx, 'org_a', 'webhooks')
SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS l;

-- RegistrationsRepository.lockUrl(tx, 'org_a', 'webhooks', url)
SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS l;

-- RegistrationsRepository.lockSecrets(tx, registrationId)
SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS l;

-- The statements signer-lease.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- SignerLeaseRepository.acquire() (lease ms 15000)
INSERT INTO signer_lease (id, holder, expires_at)
VALUES (1, $1, now() + make_interval(secs => $2::double precision / 1000))
ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
WHERE signer_lease.holder = EXCLUDED.holder OR signer_lease.expires_at < now()
RETURNING holder;

-- SignerLeaseRepository.release()
DELETE FROM signer_lease WHERE holder = $1;

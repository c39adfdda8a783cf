-- The statements sandbox-payout-failures.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- takePayoutFailure(tx, orgId)
DELETE FROM sandbox_payout_failures WHERE org_id = $1::text;

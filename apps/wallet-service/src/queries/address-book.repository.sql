-- The statements address-book.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- hasEntry(tx, orgId, 'ethereum_sepolia', addressKey)
SELECT 1 FROM address_book_entries WHERE org_id = $1 AND chain = $2 AND address_key = $3;

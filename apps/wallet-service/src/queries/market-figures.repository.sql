-- The statements market-figures.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- marketFiguresOf(db, orgId)
SELECT yield_source_id AS "yieldSourceId", org_id AS "orgId", observation_id AS "observationId", apy_bps AS "apyBps",
tvl_usd AS "tvlUsd", available_withdrawal_liquidity_usd AS "availableWithdrawalLiquidityUsd", recorded_at AS "recordedAt", expires_at AS "expiresAt" FROM market_figures WHERE org_id = ANY ($1::text[]);

-- recordMarketFigures(db, [a provider reading, an injection])
INSERT INTO market_figures (yield_source_id, org_id, observation_id, apy_bps, tvl_usd, available_withdrawal_liquidity_usd, recorded_at, expires_at)
SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::float8[], $5::float8[], $6::float8[], $7::timestamptz[], $8::timestamptz[])
ON CONFLICT (yield_source_id, org_id) DO UPDATE SET observation_id = EXCLUDED.observation_id, apy_bps = EXCLUDED.apy_bps,
       tvl_usd = EXCLUDED.tvl_usd, available_withdrawal_liquidity_usd = EXCLUDED.available_withdrawal_liquidity_usd,
       recorded_at = EXCLUDED.recorded_at, expires_at = EXCLUDED.expires_at
 WHERE (market_figures.recorded_at, market_figures.observation_id) < (EXCLUDED.recorded_at, EXCLUDED.observation_id);

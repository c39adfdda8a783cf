import { ALL_ORGANIZATIONS } from '@service/contracts';
import { type Query, runQuery } from '@service/sql';
import type { MarketFigures } from '../domain/catalogue/market-figures.js';
import type { WalletDb } from './wallet-sql.js';

/**
 * `market_figures`: the latest metric observation of risk-service per yield source and scope
 * (`org_id` `*`, {@link ALL_ORGANIZATIONS}: the provider's reading; another: that organization's
 * sandbox injection), written by the `wallet-market-data` consumer and read by the catalogue.
 */

const COLUMNS = `yield_source_id AS "yieldSourceId", org_id AS "orgId", observation_id AS "observationId", apy_bps AS "apyBps",
  tvl_usd AS "tvlUsd", available_withdrawal_liquidity_usd AS "availableWithdrawalLiquidityUsd", recorded_at AS "recordedAt", expires_at AS "expiresAt"`;

/** The rows an organization's catalogue reads: the providers' readings and its own injections, every source at once. */
export function marketFiguresQuery(orgId: string): Query<MarketFigures[]> {
  return {
    text: `SELECT ${COLUMNS} FROM market_figures WHERE org_id = ANY ($1::text[])`,
    values: [[ALL_ORGANIZATIONS, orgId]],
    read: (rows) => rows as MarketFigures[],
  };
}

export function marketFiguresOf(db: WalletDb, orgId: string): Promise<MarketFigures[]> {
  return runQuery(db, marketFiguresQuery(orgId));
}

/**
 * Records observations, one statement for all: each replaces the row of its source and scope
 * only if it is newer (`recorded_at`, then `observation_id`), so an older or repeated one changes
 * nothing, in any order. `figures` holds at most one observation per source and scope (the newest
 * of a batch: {@link newestPerScope}).
 */
export async function recordMarketFigures(db: WalletDb, figures: readonly MarketFigures[]): Promise<void> {
  if (figures.length === 0) return;
  await db.$executeRawUnsafe(
    `INSERT INTO market_figures (yield_source_id, org_id, observation_id, apy_bps, tvl_usd, available_withdrawal_liquidity_usd, recorded_at, expires_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::float8[], $5::float8[], $6::float8[], $7::timestamptz[], $8::timestamptz[])
     ON CONFLICT (yield_source_id, org_id) DO UPDATE SET observation_id = EXCLUDED.observation_id, apy_bps = EXCLUDED.apy_bps,
            tvl_usd = EXCLUDED.tvl_usd, available_withdrawal_liquidity_usd = EXCLUDED.available_withdrawal_liquidity_usd,
            recorded_at = EXCLUDED.recorded_at, expires_at = EXCLUDED.expires_at
      WHERE (market_figures.recorded_at, market_figures.observation_id) < (EXCLUDED.recorded_at, EXCLUDED.observation_id)`,
    figures.map((row) => row.yieldSourceId),
    figures.map((row) => row.orgId),
    figures.map((row) => row.observationId),
    figures.map((row) => row.apyBps),
    figures.map((row) => row.tvlUsd),
    figures.map((row) => row.availableWithdrawalLiquidityUsd),
    figures.map((row) => row.recordedAt.toISOString()),
    figures.map((row) => row.expiresAt?.toISOString() ?? null),
  );
}

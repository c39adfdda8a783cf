import { ALL_ORGANIZATIONS, type AnyDomainEvent } from '@service/contracts';
import type { RateObservation } from './catalogue.js';

/**
 * The latest observation risk-service recorded of a source in one scope (`market_figures`):
 * `orgId` {@link ALL_ORGANIZATIONS} for the provider's reading, seen by every organization, or
 * the organization whose sandbox injection it is, seen by it until `expiresAt`.
 */
export interface MarketFigures {
  readonly yieldSourceId: string;
  readonly orgId: string;
  readonly observationId: string;
  readonly apyBps: number | null;
  readonly tvlUsd: number | null;
  readonly availableWithdrawalLiquidityUsd: number | null;
  readonly recordedAt: Date;
  readonly expiresAt: Date | null;
}

/** What the catalogue shows of a source's observations: its rate preview's observation, its TVL. Empty without any. */
export interface LiveFigures {
  /** The observed rate, for `currentApy` (shown while younger than two hours: `currentApyPreview`). */
  readonly rate?: RateObservation;
  /** The observed TVL; the catalogue's own figure stands when absent. */
  readonly tvlUsd?: number;
}

/**
 * Per source, what an organization sees at `now` of the rows it read (its injections and the
 * providers' readings): its injection while it holds (not expired), else the provider's reading.
 * The rate is that observation's, however old (the preview drops it after two hours); the TVL is
 * that observation's, or the provider's when the injection carries none.
 */
export function liveFiguresOf(rows: readonly MarketFigures[], orgId: string, now: Date): Map<string, LiveFigures> {
  const provider = new Map<string, MarketFigures>();
  const injected = new Map<string, MarketFigures>();
  for (const row of rows) {
    if (row.orgId === ALL_ORGANIZATIONS) provider.set(row.yieldSourceId, row);
    else if (row.orgId === orgId && row.expiresAt !== null && row.expiresAt.getTime() > now.getTime()) injected.set(row.yieldSourceId, row);
  }
  const live = new Map<string, LiveFigures>();
  // Per source, the injection where one holds (it comes later, so it replaces the provider reading).
  for (const seen of new Map([...provider, ...injected]).values()) {
    const sourceId = seen.yieldSourceId;
    const tvlUsd = seen.tvlUsd ?? provider.get(sourceId)?.tvlUsd ?? null;
    live.set(sourceId, {
      ...(seen.apyBps !== null ? { rate: { apyBps: Math.round(seen.apyBps), asOf: seen.recordedAt } } : {}),
      ...(tvlUsd !== null ? { tvlUsd } : {}),
    });
  }
  return live;
}

/**
 * The `market_figures` row of a `risk.metrics.observed` event, or undefined for another event or
 * a malformed one (which no retry can fix).
 */
export function marketFiguresOfEvent(event: AnyDomainEvent): MarketFigures | undefined {
  if (event.type !== 'risk.metrics.observed') return undefined;
  const { observationId, yieldSourceId, orgId, metrics, recordedAt, expiresAt } = event.payload;
  const recorded = new Date(recordedAt);
  const expires = expiresAt === null ? null : new Date(expiresAt);
  if (typeof observationId !== 'string' || typeof yieldSourceId !== 'string' || Number.isNaN(recorded.getTime())) return undefined;
  if (expires !== null && Number.isNaN(expires.getTime())) return undefined;
  const figure = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    yieldSourceId,
    orgId: orgId ?? ALL_ORGANIZATIONS,
    observationId,
    apyBps: figure(metrics?.apy_bps),
    tvlUsd: figure(metrics?.tvl_usd),
    availableWithdrawalLiquidityUsd: figure(metrics?.available_withdrawal_liquidity_usd),
    recordedAt: recorded,
    expiresAt: expires,
  };
}

/**
 * Of several observations, the newest of each source and scope (by `recordedAt`, then
 * `observationId`): one statement may then record them all.
 */
export function newestPerScope(rows: readonly MarketFigures[]): MarketFigures[] {
  const newest = new Map<string, MarketFigures>();
  for (const row of rows) {
    const key = `${row.yieldSourceId} ${row.orgId}`;
    const kept = newest.get(key);
    if (!kept || isNewer(row, kept)) newest.set(key, row);
  }
  return [...newest.values()];
}

function isNewer(a: MarketFigures, b: MarketFigures): boolean {
  const at = a.recordedAt.getTime() - b.recordedAt.getTime();
  return at !== 0 ? at > 0 : a.observationId.toLowerCase() > b.observationId.toLowerCase();
}

import type { CurrentApyDto, WalletYieldSourceDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { sourcesOf } from './sources.js';
import type { RateSegment } from '../positions.js';
import type { LiveFigures } from './market-figures.js';
import type { CatalogueEntry, WalletEnvironmentName } from './types.js';

const HOUR_MS = 3_600_000;
/** The interface: a current-APY preview expires two hours after its observation. */
export const CURRENT_APY_VALIDITY_MS = 2 * HOUR_MS;

/** Each source's accrual rate changes, oldest first: from `fromMs` (epoch ms) on, `apyBps`. */
export type RateChanges = Readonly<Record<string, readonly { readonly fromMs: number; readonly apyBps: number }[]>>;

/**
 * `WALLET_ACCRUAL_RATE_CHANGES`: a JSON object of source id to `[{"from": "<ISO 8601>", "apyBps": n}, ...]`,
 * each source's changes in increasing time, rates integers 0 to 100000.
 */
export function parseRateChanges(raw: string): RateChanges {
  const parsed: unknown = JSON.parse(raw === '' ? '{}' : raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('must be a JSON object of source id to a list of changes');
  const out: Record<string, { fromMs: number; apyBps: number }[]> = {};
  for (const [id, list] of Object.entries(parsed as Record<string, unknown>)) {
    if (!Array.isArray(list)) throw new Error(`${id}: must be a list of {"from", "apyBps"}`);
    const changes = list.map((item: unknown, index) => {
      const { from, apyBps } = (item ?? {}) as { from?: unknown; apyBps?: unknown };
      const fromMs = typeof from === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(from) ? Date.parse(from) : NaN;
      if (!Number.isFinite(fromMs)) throw new Error(`${id}[${index}].from: must be an ISO 8601 date-time`);
      if (typeof apyBps !== 'number' || !Number.isInteger(apyBps) || apyBps < 0 || apyBps > 100_000) {
        throw new Error(`${id}[${index}].apyBps: must be an integer from 0 to 100000`);
      }
      return { fromMs, apyBps };
    });
    changes.forEach((change, index) => {
      const before = changes[index - 1];
      if (before && before.fromMs >= change.fromMs) throw new Error(`${id}: changes must be in increasing time`);
    });
    out[id] = changes;
  }
  return out;
}

export interface RateObservation {
  readonly apyBps: number;
  readonly asOf: Date;
}

/**
 * The preview of an observation as the catalogue shows it, or undefined once `validUntil` has
 * passed: a stale quoted rate must not be displayed.
 */
export function currentApyPreview(observation: RateObservation, now: Date): CurrentApyDto | undefined {
  const validUntil = new Date(observation.asOf.getTime() + CURRENT_APY_VALIDITY_MS);
  if (now.getTime() >= validUntil.getTime()) return undefined;
  return { apyBps: observation.apyBps, asOf: observation.asOf.toISOString(), validUntil: validUntil.toISOString() };
}

/** The yield sources of one environment, in id order (the order the list pages through). */
export class Catalogue {
  private readonly byId: ReadonlyMap<string, CatalogueEntry>;
  readonly entries: readonly CatalogueEntry[];

  private readonly rateChanges: RateChanges;

  /**
   * `rateChanges`: each source's accrual rate over time (`WALLET_ACCRUAL_RATE_CHANGES`), oldest
   * first; before its first change (and without any) a source accrues at its catalogue rate.
   */
  constructor(environment: WalletEnvironmentName, rateChanges: RateChanges = {}) {
    this.entries = sourcesOf(environment).sort((a, b) => (a.id < b.id ? -1 : 1));
    this.byId = new Map(this.entries.map((entry) => [entry.id, entry]));
    for (const id of Object.keys(rateChanges)) {
      if (!this.byId.has(id)) throw new Error(`WALLET_ACCRUAL_RATE_CHANGES names ${id}, which is not in the ${environment} catalogue`);
    }
    this.rateChanges = rateChanges;
  }

  find(id: string): CatalogueEntry | undefined {
    return this.byId.get(id);
  }

  get(id: string): CatalogueEntry {
    const entry = this.byId.get(id);
    if (!entry) throw new ServiceError('yield_source_not_found', `Yield source ${id} is not in this environment's catalogue.`);
    return entry;
  }

  /**
   * The rate positions accrue at `at` (default now): the last rate change at or before it, else
   * the historical rate, else the market's current quote, else 0.
   */
  accrualBps(entry: CatalogueEntry, at: Date = new Date()): number {
    const changes = this.rateChanges[entry.id] ?? [];
    let rate = entry.apyBps ?? entry.lendingMarket?.currentApyBps ?? 0;
    for (const change of changes) {
      if (change.fromMs > at.getTime()) break;
      rate = change.apyBps;
    }
    return rate;
  }

  /** The stretches of `[fromMs, toMs)` at each rate the source accrued at (rate changes split it). */
  rateSegments(entry: CatalogueEntry, fromMs: number, toMs: number): RateSegment[] {
    if (toMs <= fromMs) return [];
    const segments: RateSegment[] = [];
    let start = fromMs;
    let rate = this.accrualBps(entry, new Date(fromMs));
    for (const change of this.rateChanges[entry.id] ?? []) {
      if (change.fromMs <= start) continue;
      if (change.fromMs >= toMs) break;
      segments.push({ apyBps: rate, elapsedMs: change.fromMs - start });
      start = change.fromMs;
      rate = change.apyBps;
    }
    segments.push({ apyBps: rate, elapsedMs: toMs - start });
    return segments;
  }

  /**
   * A source as the catalogue shows it, with its live figures (risk-service's latest observation
   * the organization sees, `liveFiguresOf`): a lending market's `currentApy` from the observed
   * rate while younger than two hours, omitted otherwise; `tvlUsd` the observed TVL, the
   * catalogue's own figure only while no observation of the source carries one.
   */
  view(entry: CatalogueEntry, now: Date, live: LiveFigures = {}): WalletYieldSourceDto {
    const currentApy = entry.lendingMarket && live.rate ? currentApyPreview(live.rate, now) : undefined;
    return {
      id: entry.id,
      name: entry.name,
      mode: entry.mode,
      chain: entry.chain,
      depositToken: entry.depositToken,
      allocationGroup: entry.allocationGroup,
      protocol: entry.protocol,
      apyBps: entry.apyBps,
      processingPolicies: entry.processingPolicies,
      ...(currentApy ? { currentApy } : {}),
      tvlUsd: live.tvlUsd ?? entry.profile.tvlUsd,
      utilizationPct: entry.profile.utilizationPct,
      description: entry.profile.description,
      allocations: [...entry.profile.allocations],
    };
  }
}

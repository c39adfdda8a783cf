import type { CurrentApyDto, WalletYieldSourceDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { sourcesOf } from './sources.js';
import type { CatalogueEntry, WalletEnvironmentName } from './types.js';

const HOUR_MS = 3_600_000;
/** The interface: a current-APY preview expires two hours after its observation. */
export const CURRENT_APY_VALIDITY_MS = 2 * HOUR_MS;

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

  constructor(environment: WalletEnvironmentName) {
    this.entries = sourcesOf(environment).sort((a, b) => (a.id < b.id ? -1 : 1));
    this.byId = new Map(this.entries.map((entry) => [entry.id, entry]));
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
   * The lending market's quoted rate. The sandbox simulates the market's hourly observation, so
   * `asOf` is the start of the current hour.
   */
  observe(entry: CatalogueEntry, now: Date): RateObservation | undefined {
    if (!entry.lendingMarket) return undefined;
    return { apyBps: entry.lendingMarket.currentApyBps, asOf: new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS) };
  }

  /** The rate positions accrue at: the historical rate, else the market's current quote, else 0. */
  accrualBps(entry: CatalogueEntry): number {
    return entry.apyBps ?? entry.lendingMarket?.currentApyBps ?? 0;
  }

  view(entry: CatalogueEntry, now: Date): WalletYieldSourceDto {
    const observation = this.observe(entry, now);
    const currentApy = observation ? currentApyPreview(observation, now) : undefined;
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
      tvlUsd: entry.profile.tvlUsd,
      utilizationPct: entry.profile.utilizationPct,
      description: entry.profile.description,
      allocations: [...entry.profile.allocations],
    };
  }
}

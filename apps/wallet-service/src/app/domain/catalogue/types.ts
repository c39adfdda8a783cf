import type { AllocationGroup, ProcessingTimeBasis, WalletToken, YieldSourceAllocationDto } from '@service/contracts';

export type WalletEnvironmentName = 'sandbox' | 'production';

export type { ProcessingTimeBasis };

/** A typical processing time: seconds of elapsed time or banking days, finite, 0 <= min <= max. */
export interface ProcessingPolicy {
  readonly processingTimeBasis: ProcessingTimeBasis;
  readonly typicalMinUnits: number;
  readonly typicalMaxUnits: number;
}

/** What a source holds (sandbox figures are fixed). */
export interface SourceProfile {
  readonly description: string;
  /** Total value locked, USD; null when unknown. */
  readonly tvlUsd: number | null;
  /** Lending markets: share lent out, in percent; null otherwise. */
  readonly utilizationPct: number | null;
  readonly allocations: readonly YieldSourceAllocationDto[];
}

/** One source of an environment's catalogue, on that environment's chain. */
export interface CatalogueEntry {
  readonly id: string;
  readonly name: string;
  readonly mode: 'active' | 'buy_only' | 'sell_only' | 'emergency_freeze';
  readonly chain: string;
  readonly depositToken: WalletToken;
  readonly allocationGroup: AllocationGroup;
  readonly protocol: string;
  /** Historical 30-day rate; null until enough history exists. */
  readonly apyBps: number | null;
  readonly processingPolicies: { readonly deposit: ProcessingPolicy; readonly redeem: ProcessingPolicy };
  readonly profile: SourceProfile;
  /** Lending markets only: the rate the market quotes now, observed hourly. */
  readonly lendingMarket?: { readonly currentApyBps: number };
}

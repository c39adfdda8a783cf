import type { AllocationGroup, WalletToken } from '@service/contracts';

export type WalletEnvironmentName = 'sandbox' | 'production';

export type ProcessingTimeBasis = 'business_days' | 'calendar_days' | 'hours' | 'minutes';

export interface ProcessingPolicy {
  readonly processingTimeBasis: ProcessingTimeBasis;
  readonly typicalMinUnits: number;
  readonly typicalMaxUnits: number;
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
  /** Lending markets only: the rate the market quotes now, observed hourly. */
  readonly lendingMarket?: { readonly currentApyBps: number };
}

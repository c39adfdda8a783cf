/**
 * The yield sources the risk engine observes: the ids, labels and base figures of wallet-service's
 * catalogue (apps/wallet-service/src/app/domain/catalogue/sources.ts), copied because a service
 * reads no other service's code; `catalogue.spec.ts` fails when the two disagree. `liquidityPct`
 * is the share of the source's TVL held as cash or idle in the catalogue's holdings: what can be
 * withdrawn at once.
 */
export type RiskEnvironment = 'sandbox' | 'production';

export interface RiskSource {
  readonly id: string;
  readonly label: string;
  readonly protocol: string;
  /** The catalogue's APY, or the lending market's current rate when the catalogue quotes none. */
  readonly apyBps: number;
  readonly tvlUsd: number;
  readonly liquidityPct: number;
  readonly environments: readonly RiskEnvironment[];
}

const BOTH: readonly RiskEnvironment[] = ['sandbox', 'production'];

export const RISK_SOURCES: readonly RiskSource[] = [
  {
    id: 'service-jaaa-usdc-vault',
    label: 'Anemoy AAA CLO Fund (JAAA), USDC',
    protocol: 'centrifuge',
    apyBps: 585,
    tvlUsd: 412_000_000,
    liquidityPct: 3.5,
    environments: BOTH,
  },
  {
    id: 'service-jaaa-usdt-vault',
    label: 'Anemoy AAA CLO Fund (JAAA), USDT',
    protocol: 'centrifuge',
    apyBps: 570,
    tvlUsd: 38_000_000,
    liquidityPct: 3.5,
    environments: BOTH,
  },
  {
    id: 'service-ustb-vault',
    label: 'Superstate Short Duration US Government Securities Fund (USTB)',
    protocol: 'superstate',
    apyBps: 420,
    tvlUsd: 655_000_000,
    liquidityPct: 1.8,
    environments: BOTH,
  },
  {
    id: 'service-justlend-usdt-tron-market',
    label: 'JustLend USDT lending market',
    protocol: 'justlend',
    apyBps: 310,
    tvlUsd: 186_000_000,
    liquidityPct: 28.6,
    environments: BOTH,
  },
];

/** The sources observed in `environment`. */
export function sourcesOf(environment: RiskEnvironment): RiskSource[] {
  return RISK_SOURCES.filter((source) => source.environments.includes(environment));
}

/** The source with this id in `environment`, or undefined. */
export function sourceOf(environment: RiskEnvironment, id: string): RiskSource | undefined {
  return sourcesOf(environment).find((source) => source.id === id);
}

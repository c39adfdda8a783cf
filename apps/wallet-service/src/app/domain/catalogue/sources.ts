import type { CatalogueEntry, ProcessingPolicy, SourceProfile, WalletEnvironmentName } from './types.js';

/** Where and how a source is offered in one environment. */
interface Offering {
  readonly chain: string;
  /** What the name says of the chain, when the environment's network differs (e.g. "TRON Nile"). */
  readonly network?: string;
}

/** A source of the list: what it is, and in which environments it is offered on which chain. */
interface Source extends Omit<CatalogueEntry, 'chain'> {
  readonly offered: Readonly<Partial<Record<WalletEnvironmentName, Offering>>>;
}

const ETHEREUM = { sandbox: { chain: 'ethereum_sepolia' }, production: { chain: 'ethereum' } } as const;
const bankingDays = (min: number, max: number): ProcessingPolicy => ({
  processingTimeBasis: 'banking_days',
  typicalMinUnits: min,
  typicalMaxUnits: max,
});
const minutes = (min: number, max: number): ProcessingPolicy => ({
  processingTimeBasis: 'elapsed_seconds',
  typicalMinUnits: min * 60,
  typicalMaxUnits: max * 60,
});
const JAAA_POLICIES = { deposit: bankingDays(1, 2), redeem: bankingDays(1, 3) };

/** A fund's holdings: each `[label, type, pct]` valued at its share of `tvlUsd`. */
function fund(
  description: string,
  tvlUsd: number,
  holdings: readonly (readonly [string, 'rwa' | 'treasury' | 'lending' | 'cash', number])[],
  utilizationPct: number | null = null,
): SourceProfile {
  return {
    description,
    tvlUsd,
    utilizationPct,
    allocations: holdings.map(([label, type, pct]) => ({ label, type, valueUsd: Math.round((tvlUsd * pct) / 100), pct })),
  };
}

const JAAA_HOLDINGS = [
  ['AAA-rated CLO tranches', 'rwa', 96.5],
  ['Cash and equivalents', 'cash', 3.5],
] as const;
const JAAA_DESCRIPTION =
  "Anemoy's tokenized AAA CLO fund (JAAA) on Centrifuge: a portfolio of AAA-rated collateralized loan obligation tranches; redemptions settle in banking days.";

/**
 * Every yield source (production set of the changelog of Jul 20 to Oct 4, 2026): the JAAA USDC
 * and USDT vaults and USTB on Ethereum (Sepolia in the sandbox), and the JustLend USDT lending
 * market on TRON (Nile in the sandbox, with test USDT).
 */
const SOURCES: readonly Source[] = [
  {
    id: 'service-jaaa-usdc-vault',
    name: 'Anemoy AAA CLO Fund (JAAA), USDC',
    mode: 'active',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'centrifuge',
    apyBps: 585,
    processingPolicies: JAAA_POLICIES,
    profile: fund(JAAA_DESCRIPTION, 412_000_000, JAAA_HOLDINGS),
    offered: ETHEREUM,
  },
  {
    id: 'service-jaaa-usdt-vault',
    name: 'Anemoy AAA CLO Fund (JAAA), USDT',
    mode: 'active',
    depositToken: 'usdt',
    allocationGroup: 'usdt',
    protocol: 'centrifuge',
    apyBps: 570,
    processingPolicies: JAAA_POLICIES,
    profile: fund(JAAA_DESCRIPTION, 38_000_000, JAAA_HOLDINGS),
    offered: ETHEREUM,
  },
  {
    id: 'service-ustb-vault',
    name: 'Superstate Short Duration US Government Securities Fund (USTB)',
    mode: 'active',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'superstate',
    apyBps: 420,
    processingPolicies: { deposit: bankingDays(0, 1), redeem: bankingDays(0, 1) },
    profile: fund(
      "Superstate's tokenized short-duration US Government securities fund (USTB): US Treasury bills and cash; redemptions settle within a banking day.",
      655_000_000,
      [
        ['US Treasury bills', 'treasury', 98.2],
        ['Cash and equivalents', 'cash', 1.8],
      ],
    ),
    offered: ETHEREUM,
  },
  {
    id: 'service-justlend-usdt-tron-market',
    name: 'JustLend USDT lending market ({network})',
    mode: 'active',
    depositToken: 'usdt',
    allocationGroup: 'usdt:tron',
    protocol: 'justlend',
    apyBps: null,
    processingPolicies: { deposit: minutes(1, 5), redeem: minutes(1, 10) },
    profile: fund(
      'The JustLend USDT lending market on TRON: USDT supplied to over-collateralized borrowers, at the rate the market quotes; withdrawals take minutes while liquidity lasts.',
      186_000_000,
      [
        ['USDT lent to JustLend borrowers', 'lending', 71.4],
        ['Idle USDT in the market', 'cash', 28.6],
      ],
      71.4,
    ),
    lendingMarket: { currentApyBps: 310 },
    offered: { sandbox: { chain: 'tron_nile', network: 'TRON Nile' }, production: { chain: 'tron', network: 'TRON' } },
  },
];

/** The sources offered in `environment`, each on that environment's chain. */
export function sourcesOf(environment: WalletEnvironmentName): CatalogueEntry[] {
  return SOURCES.flatMap(({ offered, ...source }) => {
    const offering = offered[environment];
    if (!offering) return [];
    return [{ ...source, name: source.name.replace('{network}', offering.network ?? ''), chain: offering.chain }];
  });
}

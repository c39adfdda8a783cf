import type { CatalogueEntry, WalletEnvironmentName } from './types.js';

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
const JAAA_POLICIES = {
  deposit: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 2 },
  redeem: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 3 },
} as const;

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
    processingPolicies: {
      deposit: { processingTimeBasis: 'business_days', typicalMinUnits: 0, typicalMaxUnits: 1 },
      redeem: { processingTimeBasis: 'business_days', typicalMinUnits: 0, typicalMaxUnits: 1 },
    },
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
    processingPolicies: {
      deposit: { processingTimeBasis: 'minutes', typicalMinUnits: 1, typicalMaxUnits: 5 },
      redeem: { processingTimeBasis: 'minutes', typicalMinUnits: 1, typicalMaxUnits: 10 },
    },
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

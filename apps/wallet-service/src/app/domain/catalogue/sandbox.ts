import type { CatalogueEntry } from './types.js';

/** Sandbox catalogue: Ethereum Sepolia vaults and a TRON Nile lending market (test USDT). */
export const SANDBOX_CATALOGUE: readonly CatalogueEntry[] = [
  {
    id: 'service-jaaa-usdc-vault',
    name: 'Anemoy AAA CLO Fund (JAAA), USDC',
    mode: 'active',
    chain: 'ethereum_sepolia',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'centrifuge',
    apyBps: 585,
    processingPolicies: {
      deposit: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 2 },
      redeem: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 3 },
    },
  },
  {
    id: 'service-jaaa-usdt-vault',
    name: 'Anemoy AAA CLO Fund (JAAA), USDT',
    mode: 'active',
    chain: 'ethereum_sepolia',
    depositToken: 'usdt',
    allocationGroup: 'usdt',
    protocol: 'centrifuge',
    apyBps: 570,
    processingPolicies: {
      deposit: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 2 },
      redeem: { processingTimeBasis: 'business_days', typicalMinUnits: 1, typicalMaxUnits: 3 },
    },
  },
  {
    id: 'service-ustb-vault',
    name: 'Superstate Short Duration US Government Securities Fund (USTB)',
    mode: 'active',
    chain: 'ethereum_sepolia',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'superstate',
    apyBps: 420,
    processingPolicies: {
      deposit: { processingTimeBasis: 'business_days', typicalMinUnits: 0, typicalMaxUnits: 1 },
      redeem: { processingTimeBasis: 'business_days', typicalMinUnits: 0, typicalMaxUnits: 1 },
    },
  },
  {
    id: 'service-justlend-usdt-tron-market',
    name: 'JustLend USDT lending market (TRON Nile)',
    mode: 'active',
    chain: 'tron_nile',
    depositToken: 'usdt',
    allocationGroup: 'usdt:tron',
    protocol: 'justlend',
    apyBps: null,
    processingPolicies: {
      deposit: { processingTimeBasis: 'minutes', typicalMinUnits: 1, typicalMaxUnits: 5 },
      redeem: { processingTimeBasis: 'minutes', typicalMinUnits: 1, typicalMaxUnits: 10 },
    },
    lendingMarket: { currentApyBps: 310 },
  },
];

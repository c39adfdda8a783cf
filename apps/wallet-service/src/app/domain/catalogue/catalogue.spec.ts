import { describe, expect, it } from '@jest/globals';
import { Catalogue } from './catalogue.js';

/** Half past an hour: a lending market's current APY, observed on the hour, is still valid. */
const now = new Date('2026-11-21T10:30:00.000Z');

const days = (min: number, max: number) => ({ processingTimeBasis: 'business_days', typicalMinUnits: min, typicalMaxUnits: max });
const minutes = (min: number, max: number) => ({ processingTimeBasis: 'minutes', typicalMinUnits: min, typicalMaxUnits: max });

/** What a source shows in every environment. */
const SOURCES = {
  'service-jaaa-usdc-vault': {
    mode: 'active',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'centrifuge',
    apyBps: 585,
    processingPolicies: { deposit: days(1, 2), redeem: days(1, 3) },
  },
  'service-jaaa-usdt-vault': {
    mode: 'active',
    depositToken: 'usdt',
    allocationGroup: 'usdt',
    protocol: 'centrifuge',
    apyBps: 570,
    processingPolicies: { deposit: days(1, 2), redeem: days(1, 3) },
  },
  'service-justlend-usdt-tron-market': {
    mode: 'active',
    depositToken: 'usdt',
    allocationGroup: 'usdt:tron',
    protocol: 'justlend',
    apyBps: null,
    processingPolicies: { deposit: minutes(1, 5), redeem: minutes(1, 10) },
    currentApy: { apyBps: 310, asOf: '2026-11-21T10:00:00.000Z', validUntil: '2026-11-21T12:00:00.000Z' },
  },
  'service-ustb-vault': {
    mode: 'active',
    depositToken: 'usdc',
    allocationGroup: 'usdc',
    protocol: 'superstate',
    apyBps: 420,
    processingPolicies: { deposit: days(0, 1), redeem: days(0, 1) },
  },
} as const;

/**
 * What GET /v2/wallets/yield-sources lists in each environment, in list order: id, chain and
 * name, pinned from the two per-environment files the one list replaced.
 */
const LISTED = {
  sandbox: [
    ['service-jaaa-usdc-vault', 'ethereum_sepolia', 'Anemoy AAA CLO Fund (JAAA), USDC'],
    ['service-jaaa-usdt-vault', 'ethereum_sepolia', 'Anemoy AAA CLO Fund (JAAA), USDT'],
    ['service-justlend-usdt-tron-market', 'tron_nile', 'JustLend USDT lending market (TRON Nile)'],
    ['service-ustb-vault', 'ethereum_sepolia', 'Superstate Short Duration US Government Securities Fund (USTB)'],
  ],
  production: [
    ['service-jaaa-usdc-vault', 'ethereum', 'Anemoy AAA CLO Fund (JAAA), USDC'],
    ['service-jaaa-usdt-vault', 'ethereum', 'Anemoy AAA CLO Fund (JAAA), USDT'],
    ['service-justlend-usdt-tron-market', 'tron', 'JustLend USDT lending market (TRON)'],
    ['service-ustb-vault', 'ethereum', 'Superstate Short Duration US Government Securities Fund (USTB)'],
  ],
} as const;

describe('the yield-source catalogue', () => {
  it.each(['sandbox', 'production'] as const)('lists the %s sources on their chains, with their names and policies', (environment) => {
    const catalogue = new Catalogue(environment);
    const expected = LISTED[environment].map(([id, chain, name]) => ({ id, name, chain, ...SOURCES[id] }));
    expect(catalogue.entries.map((entry) => catalogue.view(entry, now))).toEqual(expected);
  });
});

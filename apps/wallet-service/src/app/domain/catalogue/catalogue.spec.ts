import { describe, expect, it } from '@jest/globals';
import { Catalogue } from './catalogue.js';

/** Half past an hour: a lending market's current APY, observed on the hour, is still valid. */
const now = new Date('2026-11-21T10:30:00.000Z');

const days = (min: number, max: number) => ({ processingTimeBasis: 'banking_days', typicalMinUnits: min, typicalMaxUnits: max });
const minutes = (min: number, max: number) => ({
  processingTimeBasis: 'elapsed_seconds',
  typicalMinUnits: min * 60,
  typicalMaxUnits: max * 60,
});

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
    const expected = LISTED[environment].map(([id, chain, name]) => expect.objectContaining({ id, name, chain, ...SOURCES[id] }));
    expect(catalogue.entries.map((entry) => catalogue.view(entry, now))).toEqual(expected);
    // `currentApy` comes from observations only (market-figures.spec.ts): none without them.
    for (const entry of catalogue.entries) expect(catalogue.view(entry, now)).not.toHaveProperty('currentApy');
  });

  it('gives every source finite processing units (min <= max), a description, its TVL and what it holds', () => {
    const catalogue = new Catalogue('sandbox');
    const types: Record<string, string[]> = {};
    for (const entry of catalogue.entries) {
      const view = catalogue.view(entry, now);
      for (const policy of [view.processingPolicies.deposit, view.processingPolicies.redeem]) {
        expect(['elapsed_seconds', 'banking_days']).toContain(policy.processingTimeBasis);
        expect(
          Number.isFinite(policy.typicalMinUnits) && policy.typicalMinUnits >= 0 && policy.typicalMinUnits <= policy.typicalMaxUnits,
        ).toBe(true);
      }
      expect(view.description.length).toBeGreaterThan(20);
      expect(typeof view.tvlUsd).toBe('number');
      expect(view.allocations.reduce((sum, holding) => sum + holding.pct, 0)).toBeCloseTo(100, 6);
      for (const holding of view.allocations)
        expect(holding).toEqual({
          label: expect.any(String),
          type: expect.any(String),
          valueUsd: expect.any(Number),
          pct: expect.any(Number),
        });
      types[view.id] = view.allocations.map((holding) => holding.type);
      expect(view.utilizationPct === null || (view.utilizationPct >= 0 && view.utilizationPct <= 100)).toBe(true);
    }
    // A tokenized CLO fund holds rwa, a treasury fund treasury, a lending market lending.
    expect(types).toEqual({
      'service-jaaa-usdc-vault': ['rwa', 'cash'],
      'service-jaaa-usdt-vault': ['rwa', 'cash'],
      'service-justlend-usdt-tron-market': ['lending', 'cash'],
      'service-ustb-vault': ['treasury', 'cash'],
    });
    expect(catalogue.view(catalogue.get('service-justlend-usdt-tron-market'), now).utilizationPct).toBe(71.4);
    expect(catalogue.view(catalogue.get('service-ustb-vault'), now).utilizationPct).toBeNull();
  });
});

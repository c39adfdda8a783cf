import { describe, expect, it } from '@jest/globals';
import { Catalogue, currentApyPreview } from './catalogue/catalogue.js';
import { parseStrategy, strategyAllocationsView } from './strategy.js';

const catalogue = new Catalogue('sandbox');

describe('parseStrategy', () => {
  it('reads pct and targetWeightBps forms as basis points', () => {
    expect(
      parseStrategy(
        {
          usdc: [
            { yieldSourceId: 'service-jaaa-usdc-vault', pct: 60 },
            { yieldSourceId: 'cash', targetWeightBps: 4000 },
          ],
        },
        catalogue,
      ),
    ).toEqual({
      usdc: [
        { yieldSourceId: 'service-jaaa-usdc-vault', bps: 6000 },
        { yieldSourceId: 'cash', bps: 4000 },
      ],
    });
  });

  it('takes pct in steps of 0.1, stored exactly as basis points', () => {
    expect(
      parseStrategy(
        {
          usdc: [
            { yieldSourceId: 'service-jaaa-usdc-vault', pct: 33.3 },
            { yieldSourceId: 'service-ustb-vault', pct: 66.7 },
          ],
        },
        catalogue,
      ),
    ).toEqual({
      usdc: [
        { yieldSourceId: 'service-jaaa-usdc-vault', bps: 3330 },
        { yieldSourceId: 'service-ustb-vault', bps: 6670 },
      ],
    });
    expect(
      parseStrategy(
        {
          usdc: [
            { yieldSourceId: 'service-jaaa-usdc-vault', pct: 0.1 },
            { yieldSourceId: 'cash', pct: 99.9 },
          ],
        },
        catalogue,
      ).usdc?.[0]?.bps,
    ).toBe(10);
  });

  it.each([
    [
      {
        usdc: [
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: 33.33 },
          { yieldSourceId: 'cash', pct: 66.67 },
        ],
      },
      'invalid_position_weight',
    ],
    [
      {
        usdc: [
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: 33.3 },
          { yieldSourceId: 'cash', pct: 66.6 },
        ],
      },
      'invalid_position_weight',
    ],
    [{ usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 50, targetWeightBps: 5000 }] }, 'validation_error'],
    [
      {
        usdc: [
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: 50 },
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: 50 },
        ],
      },
      'invalid_position_weight',
    ],
    [
      {
        usdc: [
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: -10 },
          { yieldSourceId: 'cash', pct: 110 },
        ],
      },
      'invalid_position_weight',
    ],
    [{ usdc: [] }, 'validation_error'],
    [{ 'usdt:tron': [{ yieldSourceId: 'service-jaaa-usdt-vault', pct: 100 }] }, 'invalid_position_weight'],
  ])('refuses %p with %s', (allocations, code) => {
    expect(() => parseStrategy(allocations, catalogue)).toThrow(expect.objectContaining({ code }));
  });

  it('reads back with a cash entry holding what the sources leave', () => {
    expect(
      strategyAllocationsView({
        usdt: [
          { yieldSourceId: 'service-jaaa-usdt-vault', bps: 7000 },
          { yieldSourceId: 'cash', bps: 3000 },
        ],
      }),
    ).toEqual({
      usdt: [
        { yieldSourceId: 'service-jaaa-usdt-vault', targetWeightBps: 7000 },
        { yieldSourceId: 'cash', targetWeightBps: 3000 },
      ],
    });
  });
});

describe('currentApyPreview', () => {
  const asOf = new Date('2026-11-21T10:00:00.000Z');

  it('is valid for two hours after the observation', () => {
    expect(currentApyPreview({ apyBps: 310, asOf }, new Date('2026-11-21T11:59:59.999Z'))).toEqual({
      apyBps: 310,
      asOf: '2026-11-21T10:00:00.000Z',
      validUntil: '2026-11-21T12:00:00.000Z',
    });
  });

  it('is not returned from validUntil on', () => {
    expect(currentApyPreview({ apyBps: 310, asOf }, new Date('2026-11-21T12:00:00.000Z'))).toBeUndefined();
  });

  it('lists the production set of the changelog on production chains', () => {
    const production = new Catalogue('production');
    expect(production.entries.map((entry) => [entry.id, entry.chain, entry.allocationGroup])).toEqual([
      ['service-jaaa-usdc-vault', 'ethereum', 'usdc'],
      ['service-jaaa-usdt-vault', 'ethereum', 'usdt'],
      ['service-justlend-usdt-tron-market', 'tron', 'usdt:tron'],
      ['service-ustb-vault', 'ethereum', 'usdc'],
    ]);
  });
});

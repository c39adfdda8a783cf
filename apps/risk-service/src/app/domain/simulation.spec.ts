import { describe, expect, it } from '@jest/globals';
import { sourceOf } from './catalogue.js';
import { simulatedFigures } from './simulation.js';

const ustb = sourceOf('sandbox', 'service-ustb-vault')!;

describe('the simulated series', () => {
  it('is the same for the same seed, source and time, and another for another seed', () => {
    const at = new Date('2026-11-28T12:00:00.000Z');
    expect(simulatedFigures('a', ustb, at)).toEqual(simulatedFigures('a', ustb, new Date(at)));
    expect(simulatedFigures('a', ustb, at)).not.toEqual(simulatedFigures('b', ustb, at));
  });

  it('stays near the catalogue figures and moves over time', () => {
    const readings = Array.from({ length: 200 }, (_, hour) =>
      simulatedFigures('seed', ustb, new Date(Date.UTC(2026, 10, 1) + hour * 3_600_000)),
    );
    for (const reading of readings) {
      expect(Math.abs(reading.apy_bps! / ustb.apyBps - 1)).toBeLessThanOrEqual(0.06);
      expect(Math.abs(reading.tvl_usd! / ustb.tvlUsd - 1)).toBeLessThanOrEqual(0.03);
      expect(reading.available_withdrawal_liquidity_usd!).toBeGreaterThan(0);
    }
    expect(new Set(readings.map((reading) => reading.apy_bps)).size).toBeGreaterThan(100);
  });
});

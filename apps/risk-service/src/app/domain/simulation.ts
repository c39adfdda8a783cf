import { createHash } from 'node:crypto';
import type { RiskSource } from './catalogue.js';
import type { MetricFigures } from './rules.js';

/**
 * The sandbox's simulated readings: a deterministic series around each source's catalogue
 * figures. Each metric is its base figure times (1 + a sum of three slow waves whose periods
 * and phases come from the seed and the source), so a reading depends only on (seed, source,
 * time): replicas, restarts, tests and demos see the same figures at the same moment.
 * APY moves within about ±6 %, TVL within ±3 % and liquidity within ±12 % of their bases.
 */
const AMPLITUDES = { apy_bps: 0.06, tvl_usd: 0.03, available_withdrawal_liquidity_usd: 0.12 } as const;
const PERIODS_HOURS = [6, 29, 173] as const;

/** Uniform numbers in [0, 1) from the seed, the source and a label. */
function seeded(seed: string, sourceId: string, label: string, count: number): number[] {
  const digest = createHash('sha256').update(`${seed}\u0000${sourceId}\u0000${label}`).digest();
  return Array.from({ length: count }, (_, index) => digest.readUInt32BE(index * 4) / 2 ** 32);
}

function wave(seed: string, sourceId: string, metric: keyof typeof AMPLITUDES, at: Date): number {
  const phases = seeded(seed, sourceId, metric, PERIODS_HOURS.length * 2);
  const hours = at.getTime() / 3_600_000;
  let sum = 0;
  PERIODS_HOURS.forEach((period, index) => {
    const stretch = 0.75 + 0.5 * (phases[index * 2] as number);
    const phase = 2 * Math.PI * (phases[index * 2 + 1] as number);
    sum += Math.sin((2 * Math.PI * hours) / (period * stretch) + phase) / PERIODS_HOURS.length;
  });
  return 1 + AMPLITUDES[metric] * sum;
}

/** The simulated reading of `source` at `at`. */
export function simulatedFigures(seed: string, source: RiskSource, at: Date): MetricFigures {
  const tvl = source.tvlUsd * wave(seed, source.id, 'tvl_usd', at);
  const liquidity = ((tvl * source.liquidityPct) / 100) * wave(seed, source.id, 'available_withdrawal_liquidity_usd', at);
  return {
    apy_bps: Math.round(source.apyBps * wave(seed, source.id, 'apy_bps', at) * 100) / 100,
    tvl_usd: Math.round(tvl * 100) / 100,
    available_withdrawal_liquidity_usd: Math.round(liquidity * 100) / 100,
  };
}

import type { ProcessingEstimateDto } from '@service/contracts';
import type { Catalogue } from './catalogue/catalogue.js';
import type { ProcessingPolicy } from './catalogue/types.js';

/** Seconds per unit of each basis, only to compare policies (a banking day counts as 7/5 days). */
const UNIT_SECONDS = { elapsed_seconds: 1, banking_days: (86_400 * 7) / 5 } as const;

/** A transfer of cash already held: one to ten minutes. */
export const CASH_PAYOUT: ProcessingPolicy = { processingTimeBasis: 'elapsed_seconds', typicalMinUnits: 60, typicalMaxUnits: 600 };

/** The slowest redemption among the positions drawn on (cash alone: a transfer). */
export function slowestPolicy(positionIds: readonly string[], catalogue: Catalogue): ProcessingPolicy {
  const policies = positionIds.map((id) => catalogue.find(id)?.processingPolicies.redeem ?? CASH_PAYOUT);
  const seconds = (policy: ProcessingPolicy) => policy.typicalMaxUnits * UNIT_SECONDS[policy.processingTimeBasis];
  return policies.reduce((slowest, policy) => (seconds(policy) > seconds(slowest) ? policy : slowest), CASH_PAYOUT);
}

/** ISO 8601 duration of a number of seconds in its largest exact units: 1260 -> `PT21M`, 7200 -> `PT2H`, 90 -> `PT1M30S`. */
export function secondsDuration(total: number): string {
  const whole = Math.round(total);
  const parts = [
    [Math.floor(whole / 3_600), 'H'],
    [Math.floor((whole % 3_600) / 60), 'M'],
    [whole % 60, 'S'],
  ] as const;
  const text = parts
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value}${unit}`)
    .join('');
  return `PT${text === '' ? '0S' : text}`;
}

function duration(policy: ProcessingPolicy, units: number): string {
  return policy.processingTimeBasis === 'banking_days' ? `P${units}D` : secondsDuration(units);
}

/** How long a payout drawn on these positions typically takes, as ISO 8601 durations of its basis. */
export function processingEstimate(positionIds: readonly string[], catalogue: Catalogue): ProcessingEstimateDto {
  const policy = slowestPolicy(positionIds, catalogue);
  return {
    basis: policy.processingTimeBasis,
    typicalMinDuration: duration(policy, policy.typicalMinUnits),
    typicalMaxDuration: duration(policy, policy.typicalMaxUnits),
  };
}

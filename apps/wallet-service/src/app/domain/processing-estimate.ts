import type { Catalogue } from './catalogue/catalogue.js';
import type { ProcessingPolicy } from './catalogue/types.js';

/** Minutes per unit of each basis, only to compare policies (a business day counts as 7/5 days). */
const UNIT_MINUTES = { minutes: 1, hours: 60, calendar_days: 1_440, business_days: 2_016 } as const;

/** A transfer of cash already held: minutes. */
export const CASH_PAYOUT: ProcessingPolicy = { processingTimeBasis: 'minutes', typicalMinUnits: 1, typicalMaxUnits: 10 };

/** How long a payout drawn on these positions typically takes: the slowest redemption among them. */
export function processingEstimate(positionIds: readonly string[], catalogue: Catalogue): ProcessingPolicy {
  const policies = positionIds.map((id) => catalogue.find(id)?.processingPolicies.redeem ?? CASH_PAYOUT);
  return policies.reduce(
    (slowest, policy) =>
      policy.typicalMaxUnits * UNIT_MINUTES[policy.processingTimeBasis] > slowest.typicalMaxUnits * UNIT_MINUTES[slowest.processingTimeBasis] ? policy : slowest,
    CASH_PAYOUT,
  );
}

import type { PayoutLeg, WithdrawalObject } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { WithdrawalRecord } from './records.js';

export function legsOf(row: WithdrawalRecord): PayoutLeg[] {
  return row.payoutLegs as unknown as PayoutLeg[];
}

/** The withdrawal object of the spec, exactly its fields. */
export function withdrawalView(row: WithdrawalRecord): WithdrawalObject {
  const legs = legsOf(row);
  return {
    id: row.id,
    amountRequestedUsd: formatUsd(row.amountRequested),
    amountPaidUsd: row.amountPaid === null ? null : formatUsd(row.amountPaid),
    feeUsd: formatUsd(row.fee),
    destinationChain: row.destinationChain,
    destinationAddress: row.destinationAddress,
    destinationToken: row.destinationToken,
    status: row.status,
    legsCompleted: legs.filter((leg) => leg.status === 'completed').length,
    legsTotal: legs.length,
    payoutLegs: legs,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

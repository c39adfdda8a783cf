import { createHash } from 'node:crypto';
import type { PayoutLeg, WithdrawalObject } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { WithdrawalRecord } from './records.js';

/** A leg as stored: the wire shape and what only the service reads. */
export interface StoredLeg extends PayoutLeg {
  /** A failed leg that the retry route may run again. */
  retryable?: boolean;
  /** A leg that failed because its customer approval passed its deadline without quorum. */
  approvalExpired?: boolean;
}

/** A stable uuid-shaped id for a leg stored before legs had ids: from its withdrawal and position. */
function legacyLegId(withdrawalId: string, index: number): string {
  const hex = createHash('sha256').update(`${withdrawalId}:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function legsOf(row: WithdrawalRecord): StoredLeg[] {
  return (row.payoutLegs as unknown as StoredLeg[]).map((leg, index) => (leg.id ? leg : { ...leg, id: legacyLegId(row.id, index) }));
}

/** A leg as clients see it: exactly the fields of the payout leg; the approval fields only while it waits for approval. */
export function legView(leg: StoredLeg): PayoutLeg {
  const { id, status, amountUsd, from, to, startedAt, completedAt, stepsCompleted, stepsTotal, steps } = leg;
  const waiting = status === 'pending_customer_approval';
  return {
    id,
    status,
    amountUsd,
    from,
    to,
    startedAt,
    completedAt,
    stepsCompleted,
    stepsTotal,
    steps,
    turnkeyActivityId: waiting ? (leg.turnkeyActivityId ?? null) : null,
    approvalRequestedAt: waiting ? (leg.approvalRequestedAt ?? null) : null,
    approvalValidBefore: waiting ? (leg.approvalValidBefore ?? null) : null,
  };
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
    payoutLegs: legs.map(legView),
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

import type { ApprovalChangeDto, TurnkeyActivityStatus, ApproverDto, PendingActivityDto } from '@service/contracts';

export const CONSENSUS_NEEDED: TurnkeyActivityStatus = 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
export const COMPLETED: TurnkeyActivityStatus = 'ACTIVITY_STATUS_COMPLETED';
export const REJECTED: TurnkeyActivityStatus = 'ACTIVITY_STATUS_REJECTED';
export const FAILED: TurnkeyActivityStatus = 'ACTIVITY_STATUS_FAILED';

export type ActivityKind = 'withdrawal_payout' | 'deposit_address_setup' | 'approver_change' | 'policy_change' | 'address_book_change';

/** What approvers see of an activity (and its fingerprint covers). */
export interface ActivitySubject {
  readonly withdrawalId: string | null;
  readonly withdrawalLegId: string | null;
  readonly destinationChain: string | null;
  readonly destinationToken: string | null;
  readonly destinationAddress: string | null;
  readonly plannedSourceNativeUnits: string | null;
  readonly displayAmountNativeUnits: string | null;
  /** Null for a change to the organization's approvers, policy or address book. */
  readonly txChain: string | null;
  /** The change to the organization's approvers, policy or address book (absent otherwise). */
  readonly change?: ApprovalChangeDto;
}

export interface ActivityRecord {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string | null;
  readonly kind: string;
  readonly withdrawalId: string | null;
  readonly legId: string | null;
  readonly setupId: string | null;
  readonly changeId: string | null;
  readonly status: string;
  readonly fingerprint: string;
  readonly quorum: number;
  readonly subject: unknown;
  readonly validBefore: Date;
  readonly createdAt: Date;
}

/** A pending activity in the shape the real API lists it. */
export function pendingView(row: ActivityRecord): PendingActivityDto {
  return {
    turnkeyActivityId: row.id,
    status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
    activityType: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    activityKind: row.kind,
    fingerprint: row.fingerprint,
    firstSeenAt: row.createdAt.toISOString(),
    portfolioWalletId: row.walletId,
    ...(row.subject as ActivitySubject),
    change: (row.subject as ActivitySubject).change ?? null,
  };
}

export function approverView(row: { id: string; label: string; publicKey: string; createdAt: Date }): ApproverDto {
  return { id: row.id, label: row.label, publicKey: row.publicKey, createdAt: row.createdAt.toISOString() };
}

/** The outcome of the votes so far: quorum of distinct approvals, or one reject. */
export function outcomeOf(votes: readonly { action: string }[], quorum: number): TurnkeyActivityStatus {
  if (votes.some((vote) => vote.action === 'reject')) return REJECTED;
  return votes.filter((vote) => vote.action === 'approve').length >= quorum ? COMPLETED : CONSENSUS_NEEDED;
}

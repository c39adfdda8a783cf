import type { ApprovalPolicyDto, ApprovalPolicyMode } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd } from '@service/money';

/** An organization's approval policy as stored; `threshold` in micro-dollars. */
export interface ApprovalPolicyRecord {
  readonly withdrawals: string;
  readonly threshold: bigint | null;
  readonly quorum: number;
  readonly updatedAt: Date | null;
}

/**
 * The policy in force: the organization's own, else the environment's default (`all` with a
 * quorum of 1 where the environment requires approval, production; `none` in the sandbox).
 */
export function effectivePolicy(stored: ApprovalPolicyRecord | null, requireApprovalByDefault: boolean): ApprovalPolicyRecord {
  return stored ?? { withdrawals: requireApprovalByDefault ? 'all' : 'none', threshold: null, quorum: 1, updatedAt: null };
}

/** Whether a withdrawal of this amount waits for customer approval. */
export function withdrawalNeedsApproval(policy: ApprovalPolicyRecord, amount: bigint): boolean {
  if (policy.withdrawals === 'all') return true;
  return policy.withdrawals === 'above_threshold' && policy.threshold !== null && amount > policy.threshold;
}

/** A new policy, checked: a threshold exactly with `above_threshold`, and enough approvers for the quorum unless `none`. */
export function checkPolicy(input: { withdrawals: ApprovalPolicyMode; threshold: bigint | null; quorum: number }, approvers: number): void {
  if (input.withdrawals === 'above_threshold' && input.threshold === null) {
    throw new ServiceError('validation_error', 'thresholdUsd is required when withdrawals is above_threshold.');
  }
  if (input.withdrawals !== 'above_threshold' && input.threshold !== null) {
    throw new ServiceError('validation_error', 'thresholdUsd applies only when withdrawals is above_threshold.');
  }
  if (input.withdrawals !== 'none' && approvers < input.quorum) {
    throw new ServiceError(
      'approval_quorum_unreachable',
      `A quorum of ${input.quorum} needs at least ${input.quorum} approvers; this organization has ${approvers}. Add approvers first (POST /v2/approvals/approvers).`,
    );
  }
}

export function policyView(policy: ApprovalPolicyRecord): ApprovalPolicyDto {
  return {
    withdrawals: policy.withdrawals as ApprovalPolicyMode,
    thresholdUsd: policy.threshold === null ? null : formatUsd(policy.threshold),
    quorum: policy.quorum,
    updatedAt: policy.updatedAt?.toISOString() ?? null,
  };
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  ApprovalAuditListDto,
  ApprovalPolicyDto,
  ApproverDeletedDto,
  ApproverDto,
  ApproverListDto,
  GovernedReply,
  RequestContext,
  RequestOf,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { approverView } from '../domain/customer-approvals/activities.js';
import { checkPossession } from '../domain/customer-approvals/changes.js';
import { checkPolicy, policyView } from '../domain/customer-approvals/policy.js';
import { publicKeyOf } from '../domain/customer-approvals/stamp.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import { findApproverById } from '../repositories/approval-changes.repository.js';
import { listApprovers, listAudit } from '../repositories/approvals.repository.js';
import { governChange } from './approval-changes.js';
import { policyInForce } from './policy-in-force.js';

/**
 * The organization's approvers (P-256 keys whose stamped votes release pending activities) and its
 * approval policy. Once the organization has approvers, adding or removing one and weakening the
 * policy wait for the approvers' quorum (`approval-changes.ts`); every applied change is audited
 * in the same transaction.
 */
@Injectable()
export class ApprovalsService extends WalletFeature {
  /**
   * Registers a key after checking its proof of possession (the new key's `X-Stamp` over the exact
   * body): at once for the organization's first approver, else as a pending change.
   */
  async createApprover(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approversCreate>): Promise<GovernedReply<ApproverDto>> {
    const publicKey = input.publicKey.toLowerCase();
    if (!publicKeyOf(publicKey)) throw new ServiceError('validation_error', 'publicKey is not a point of the P-256 curve.');
    checkPossession({ publicKey, timestampMs: input.timestampMs, signedBody: input.signedBody, stamp: input.stamp }, new Date());
    const id = randomUUID();
    const reply = await governChange<ApproverDto>(this.sql, this.env, ctx, {
      kind: 'approver.created',
      build: async () => ({ id, label: input.label, publicKey }),
    });
    this.publishAndRun();
    return reply;
  }

  async listApprovers(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approversList>): Promise<ApproverListDto> {
    const page = new NewestFirst('approvers', {}, input);
    return page.page(await listApprovers(this.prisma, ctx.orgId, page), approverView);
  }

  /** Removes an approver once the approvers' quorum agrees: its future stamps no longer count; votes it already cast stay counted. */
  async deleteApprover(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.wallet.approversDelete>,
  ): Promise<GovernedReply<ApproverDeletedDto>> {
    const reply = await governChange<ApproverDeletedDto>(this.sql, this.env, ctx, {
      kind: 'approver.deleted',
      build: async (tx) => {
        const approver = await findApproverById(tx, ctx.orgId, input.approverId);
        if (!approver) throw new ServiceError('approver_not_found', `Approver ${input.approverId} was not found.`);
        return { ...approverView(approver) };
      },
    });
    this.publishAndRun();
    return reply;
  }

  async getPolicy(ctx: RequestContext): Promise<ApprovalPolicyDto> {
    return policyView(await policyInForce(this.prisma, this.env, ctx.orgId));
  }

  /**
   * Sets the policy; one that asks for approval needs at least `quorum` approvers. A weaker policy
   * (fewer withdrawals to approve, a lower quorum) of an organization with approvers waits for them.
   */
  async putPolicy(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.wallet.approvalPolicyPut>,
  ): Promise<GovernedReply<ApprovalPolicyDto>> {
    const threshold = input.thresholdUsd === undefined ? null : parseUsd(input.thresholdUsd, { field: 'thresholdUsd' });
    // The shape alone (threshold with its mode); the quorum against the approvers is checked under the lock.
    checkPolicy({ withdrawals: input.withdrawals, threshold, quorum: input.quorum }, Number.MAX_SAFE_INTEGER);
    const reply = await governChange<ApprovalPolicyDto>(this.sql, this.env, ctx, {
      kind: 'policy.updated',
      build: async () => ({
        withdrawals: input.withdrawals,
        thresholdUsd: policyView({ withdrawals: input.withdrawals, threshold, quorum: input.quorum, updatedAt: null }).thresholdUsd,
        quorum: input.quorum,
      }),
    });
    this.publishAndRun();
    return reply;
  }

  async listAudit(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approvalAuditList>): Promise<ApprovalAuditListDto> {
    const page = new NewestFirst('approval-audit', {}, input);
    return page.page(await listAudit(this.prisma, ctx.orgId, page), (row) => ({
      id: row.id,
      action: row.action,
      principalId: row.principalId,
      before: row.before as Record<string, unknown> | null,
      after: row.after as Record<string, unknown> | null,
      turnkeyActivityId: row.activityId,
      approvedBy: (row.approvedBy ?? null) as string[] | null,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}

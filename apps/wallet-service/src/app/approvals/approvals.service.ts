import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type {
  ApprovalAuditListDto,
  ApprovalPolicyDto,
  ApproverDeletedDto,
  ApproverDto,
  ApproverListDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseUsd } from '@service/money';
import { NewestFirst } from '@service/pagination';
import { approverView } from '../domain/customer-approvals/activities.js';
import { checkPolicy, policyView } from '../domain/customer-approvals/policy.js';
import { publicKeyOf } from '../domain/customer-approvals/stamp.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import {
  addApprover,
  audit,
  countApprovers,
  deleteApprover,
  findApprover,
  listApprovers,
  listAudit,
  lockApprovals,
  savePolicy,
} from '../repositories/approvals.repository.js';
import { inTransaction } from '../repositories/db.js';
import { policyInForce } from './policy-in-force.js';

/**
 * The organization's approvers (P-256 keys whose stamped votes release pending activities) and its
 * approval policy; every change is audited in the same transaction.
 */
@Injectable()
export class ApprovalsService extends WalletFeature {

  async createApprover(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approversCreate>): Promise<ApproverDto> {
    const publicKey = input.publicKey.toLowerCase();
    if (!publicKeyOf(publicKey)) throw new ServiceError('validation_error', 'publicKey is not a point of the P-256 curve.');
    const now = new Date();
    const approver = { id: randomUUID(), orgId: ctx.orgId, label: input.label, publicKey, createdAt: now };
    return inTransaction(this.prisma, async (tx) => {
      await lockApprovals(tx, ctx.orgId);
      if (!(await addApprover(tx, approver))) throw new ServiceError('approver_duplicate_key', 'This public key is already an approver of the organization.');
      const view = approverView(approver);
      await audit(tx, { orgId: ctx.orgId, principalId: ctx.principalId, action: 'approver.created', before: null, after: view, now });
      return view;
    });
  }

  async listApprovers(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approversList>): Promise<ApproverListDto> {
    const page = new NewestFirst('approvers', {}, input);
    return page.page(await listApprovers(this.prisma, ctx.orgId, page), approverView);
  }

  /** Removes an approver: its future stamps no longer count; votes it already cast stay counted. */
  async deleteApprover(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approversDelete>): Promise<ApproverDeletedDto> {
    return inTransaction(this.prisma, async (tx) => {
      await lockApprovals(tx, ctx.orgId);
      const approver = await findApprover(tx, ctx.orgId, input.approverId);
      if (!approver || !(await deleteApprover(tx, ctx.orgId, approver.id))) throw new ServiceError('approver_not_found', `Approver ${input.approverId} was not found.`);
      await audit(tx, { orgId: ctx.orgId, principalId: ctx.principalId, action: 'approver.deleted', before: approverView(approver), after: null, now: new Date() });
      return { id: approver.id, deleted: true };
    });
  }

  async getPolicy(ctx: RequestContext): Promise<ApprovalPolicyDto> {
    return policyView(await policyInForce(this.prisma, this.env, ctx.orgId));
  }

  /** Sets the policy; one that asks for approval needs at least `quorum` approvers. */
  async putPolicy(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approvalPolicyPut>): Promise<ApprovalPolicyDto> {
    const threshold = input.thresholdUsd === undefined ? null : parseUsd(input.thresholdUsd, { field: 'thresholdUsd' });
    const now = new Date();
    return inTransaction(this.prisma, async (tx) => {
      await lockApprovals(tx, ctx.orgId);
      checkPolicy({ withdrawals: input.withdrawals, threshold, quorum: input.quorum }, await countApprovers(tx, ctx.orgId));
      const before = await policyInForce(tx, this.env, ctx.orgId);
      const saved = await savePolicy(tx, { orgId: ctx.orgId, withdrawals: input.withdrawals, threshold, quorum: input.quorum, updatedAt: now });
      const after = policyView(saved);
      await audit(tx, { orgId: ctx.orgId, principalId: ctx.principalId, action: 'policy.updated', before: policyView(before), after, now });
      return after;
    });
  }

  async listAudit(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.wallet.approvalAuditList>): Promise<ApprovalAuditListDto> {
    const page = new NewestFirst('approval-audit', {}, input);
    return page.page(await listAudit(this.prisma, ctx.orgId, page), (row) => ({
      id: row.id,
      action: row.action,
      principalId: row.principalId,
      before: row.before as Record<string, unknown> | null,
      after: row.after as Record<string, unknown> | null,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}

import { Injectable } from '@nestjs/common';
import type {
  TurnkeyActivityStatus,
  ApprovalRequestResponseDto,
  PendingActivitiesDto,
  RequestContext,
  RequestOf,
  SUBJECTS,
  VoteResponseDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ApprovalActivity, Wallet } from '../../generated/prisma/client.js';
import { COMPLETED, CONSENSUS_NEEDED, outcomeOf, pendingView, REJECTED } from '../domain/customer-approvals/activities.js';
import { parseStamp, stampSigns } from '../domain/customer-approvals/stamp.js';
import { canonicalPayload, checkRequest, turnkeyRequestOf } from '../domain/customer-approvals/turnkey-request.js';
import { legsOf } from '../domain/withdrawal-view.js';
import { approveSetup, rejectSetup } from '../deposit-addresses/setup-changes.js';
import { getChange } from '../repositories/approval-changes.repository.js';
import { decideChange } from './approval-changes.js';
import { WalletFeature } from '../environment/wallet-feature.js';
import {
  addEndActivity,
  findActivity,
  findApproverByKey,
  listPendingActivities,
  lockApprovalsSql,
  recordVote,
  votesOn,
} from '../repositories/approvals.repository.js';
import { getApproval } from '../repositories/deposit-address-approvals.repository.js';
import { openLedger } from '../repositories/positions.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { lockWallet } from '../repositories/wallets.repository.js';
import { findWithdrawal } from '../repositories/withdrawals.repository.js';
import { Writes } from '../repositories/writes.js';
import { cancelLeg, releaseApprovedLeg } from '../withdrawals/withdrawal-changes.js';

type Vote = RequestOf<typeof SUBJECTS.wallet.turnkeyVote>;

function activityNotFound(activityId: string): ServiceError {
  return new ServiceError('activity_not_found', `Activity ${activityId} was not found.`);
}

/**
 * The Turnkey-named routes: the organization's pending activities, the request an approver
 * stamps, and stamped votes. A vote counts only when its stamp verifies over the canonical
 * request, its key is a current approver, the request names this activity and organization, is
 * fresh, the deadline has not passed and the key has not voted on it yet; the vote and what it
 * releases (the leg moves on or is cancelled, the setup or the change to approvers, policy or
 * address book is approved or refused) commit in one transaction with their events.
 */
@Injectable()
export class TurnkeyService extends WalletFeature {
  async pending(ctx: RequestContext): Promise<PendingActivitiesDto> {
    return { activities: (await listPendingActivities(this.prisma, ctx.orgId, new Date())).map(pendingView) };
  }

  async approvalRequest(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.wallet.turnkeyApprovalRequest>,
  ): Promise<ApprovalRequestResponseDto> {
    const activityId = input.activityId.toLowerCase();
    const activity = await findActivity(this.sql, ctx.orgId, activityId);
    if (!activity) throw activityNotFound(activityId);
    const turnkeyRequest = turnkeyRequestOf({
      action: input.action,
      organizationId: activity.orgId,
      fingerprint: activity.fingerprint,
      now: new Date(),
    });
    return { activityId, action: input.action, turnkeyRequest, stampPayload: canonicalPayload(turnkeyRequest) };
  }

  async vote(ctx: RequestContext, input: Vote): Promise<VoteResponseDto> {
    const activityId = input.activityId.toLowerCase();
    const found = await findActivity(this.sql, ctx.orgId, activityId);
    if (!found) throw activityNotFound(activityId);
    const stamp = parseStamp(input.customerApprovalStamp);
    if (!stampSigns(stamp, canonicalPayload(input.turnkeyRequest))) {
      throw new ServiceError(
        'invalid_stamp',
        'The stamp’s signature does not verify over turnkeyRequest (sign the stampPayload of POST /v2/turnkey/activity-approval-request as it is).',
      );
    }
    const now = this.env.now();
    checkRequest(input.turnkeyRequest, { action: input.action, organizationId: found.orgId, fingerprint: found.fingerprint, now });
    // PgPoolSql, under the wallet lock (the organization's approvals lock for a change to its
    // approvers, policy or address book): the vote, what it releases and the activity's end.
    const answer = await this.sql.$transaction(async (tx) => {
      let wallet: Wallet | null = null;
      if (found.walletId === null) await lockApprovalsSql(tx, found.orgId);
      else wallet = await lockWallet(tx, found.orgId, found.walletId);
      const approver = await findApproverByKey(tx, found.orgId, stamp.publicKey);
      if (!approver) throw new ServiceError('approver_not_authorized', 'The stamp’s public key is not an approver of this organization.');
      // Re-read under the lock: votes and the worker's expiry apply one at a time.
      const activity = (await findActivity(tx, found.orgId, activityId)) as ApprovalActivity;
      if (activity.status === COMPLETED || activity.status === REJECTED) {
        return this.answer(input.action, activity.status, await this.currentStatus(tx, activity), true);
      }
      if (activity.status !== CONSENSUS_NEEDED || activity.validBefore <= now) {
        throw new ServiceError(
          'approval_expired',
          `Activity ${activityId} is no longer pending: its deadline passed or what it approves was cancelled.`,
        );
      }
      const recorded = await recordVote(tx, {
        activityId,
        publicKey: stamp.publicKey,
        approverId: approver.id,
        action: input.action,
        createdAt: now,
      });
      if (!recorded) throw new ServiceError('approval_already_voted', `This approver has already voted on activity ${activityId}.`);
      const votes = await votesOn(tx, activityId);
      const outcome = outcomeOf(votes, activity.quorum);
      if (outcome === CONSENSUS_NEEDED) return this.answer(input.action, outcome, await this.currentStatus(tx, activity), false);
      const approvedBy = votes.filter((cast) => cast.action === 'approve').map((cast) => cast.publicKey);
      const resultStatus = await this.release(tx, wallet, activity, outcome, approvedBy, now);
      const writes = new Writes();
      addEndActivity(writes, activityId, outcome, now);
      await writes.run(tx);
      return this.answer(input.action, outcome, resultStatus, false);
    });
    this.publishAndRun();
    return answer;
  }

  /**
   * What the outcome releases: quorum sends the leg on (or approves the setup, or applies the
   * change), a reject cancels it. Its status afterwards.
   */
  private async release(
    tx: WalletTx,
    wallet: Wallet | null,
    activity: ApprovalActivity,
    outcome: TurnkeyActivityStatus,
    approvedBy: string[],
    now: Date,
  ): Promise<string> {
    if (activity.changeId !== null || wallet === null) {
      return decideChange(tx, this.env, { row: await getChange(tx, activity.changeId as string), outcome, approvedBy, now });
    }
    if (activity.kind === 'deposit_address_setup') {
      const row = await getApproval(tx, activity.setupId as string);
      if (outcome === COMPLETED) return (await approveSetup(tx, { wallet, row, seed: this.env.seed, now })).status;
      return (await rejectSetup(tx, row, now)).status;
    }
    const row = await findWithdrawal(tx, wallet.id, activity.withdrawalId as string);
    const step = { tx, wallet, ledger: await openLedger(tx, wallet.id, this.env, now), env: this.env, now };
    const legId = activity.legId as string;
    if (outcome === COMPLETED) return (await releaseApprovedLeg(step, row, legId))?.status ?? 'unknown';
    return (await cancelLeg(step, row, legId)).leg.status;
  }

  /** The status of what the activity released, as it is now. */
  private async currentStatus(tx: WalletTx, activity: ApprovalActivity): Promise<string> {
    if (activity.changeId !== null) return (await getChange(tx, activity.changeId)).status;
    if (activity.kind === 'deposit_address_setup') return (await getApproval(tx, activity.setupId as string)).status;
    const row = await findWithdrawal(tx, activity.walletId as string, activity.withdrawalId as string);
    return legsOf(row).find((leg) => leg.id === activity.legId)?.status ?? 'unknown';
  }

  private answer(action: Vote['action'], status: TurnkeyActivityStatus, resultStatus: string, after: boolean): VoteResponseDto {
    return {
      action,
      approved: status === COMPLETED,
      rejected: status === REJECTED,
      alreadyCompleted: after && status === COMPLETED,
      alreadyTerminal: after,
      status,
      resultStatus,
    };
  }
}

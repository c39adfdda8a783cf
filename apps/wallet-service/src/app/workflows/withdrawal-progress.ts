import type { PayoutLeg } from '@service/contracts';
import { parseUsd } from '@service/money';
import type { Withdrawal } from '../../generated/prisma/client.js';
import { recordAccounting } from '../accounting/record-accounting.js';
import type { ActivitySubject } from '../domain/customer-approvals/activities.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { type ApprovalPolicyRecord, withdrawalNeedsApproval } from '../domain/customer-approvals/policy.js';
import { approvalLapsed, awaitApproval, expireLeg, settledStatus } from '../domain/payout-legs.js';
import { movedMoney, needsApprovalElsewhere, nextConfirmingLeg, nextRunOf, planLegs, runLegs } from '../domain/withdrawal-progress.js';
import { legsOf, type StoredLeg } from '../domain/withdrawal-view.js';
import { addActivity, addEndActivity } from '../repositories/approvals.repository.js';
import { balanceUpdated, positionsUpdated, withdrawalChanged } from '../domain/wallet-events.js';
import { addLedger } from '../repositories/positions.repository.js';
import { takePayoutFailure } from '../repositories/sandbox-payout-failures.repository.js';
import { addLegChanges, addWakeWallet, type PayoutStepState } from '../repositories/withdrawals.repository.js';
import { Writes } from '../repositories/writes.js';
import { addStatusOf } from '../wallets/wallet-status-changes.js';
import { addLegEvents, type WithdrawalStep } from '../withdrawals/withdrawal-changes.js';

/**
 * One stage of a due withdrawal under the wallet lock: a leg whose approval deadline passed fails
 * (its money freed, its activity `FAILED`), legs leave `planning` (one waiting for approval gets
 * its pending activity), running legs move one stage (sandbox: an armed organization's next leg
 * fails retryably), money of delivered legs leaves the wallet and that of failed legs is freed;
 * once every leg is terminal the withdrawal settles. Announced: each changed leg
 * (`withdrawal.payout.status_changed`); when money moved, each changed position
 * (`position.updated`) and the wallet's totals (`balance.updated`); once settled, the withdrawal
 * (`withdrawal.status_changed`) and the wallet's status when it follows (`status_changed`). A
 * stage that changes nothing announces nothing. Every write and event in one
 * statement (`Writes`); the sandbox's armed failure is taken before, only when a leg may confirm.
 */
export async function advanceWithdrawal(step: WithdrawalStep, state: PayoutStepState, policy: ApprovalPolicyRecord): Promise<void> {
  const { tx, wallet, ledger, env, now } = step;
  const { row } = state;
  const writes = new Writes();
  const legs = legsOf(row).map((leg) => structuredClone(leg));
  const expired = expireLapsedApprovals(writes, step, legs);
  const requireApproval = withdrawalNeedsApproval(policy, row.amountRequested);
  const elsewhere = needsApprovalElsewhere(legs, requireApproval) && state.approvalElsewhere;
  const planned = planLegs(legs, requireApproval, elsewhere);
  requestApprovals(writes, step, row, legs, planned, policy.quorum);
  // Sandbox: an armed organization's next leg to confirm a transaction fails retryably.
  const next = env.sandbox ? nextConfirmingLeg(legs, planned) : undefined;
  const failsRetryably = next && (await takePayoutFailure(tx, row.orgId)) ? next : undefined;
  const ran = runLegs(ledger, row, legs, {
    skip: new Set([...planned, ...expired]),
    failing: env.failingSources,
    failsRetryably,
    env,
    now,
  });
  const changed = new Set([...expired, ...planned, ...ran]);
  const settled = settledStatus(legs);
  const saved = addLegChanges(writes, { row, legs, nextRunAt: nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), settled, now });
  addLegEvents(writes, saved, legs, changed, now);
  const scope = { orgId: row.orgId, observedAt: now };
  if (movedMoney(ran)) {
    for (const event of positionsUpdated(ledger, scope)) writes.addEvent(event);
    recordAccounting(writes, ledger, row.orgId);
    addLedger(writes, ledger);
    writes.addEvent(balanceUpdated(ledger, scope));
  } else if (expired.size > 0) {
    recordAccounting(writes, ledger, row.orgId);
    addLedger(writes, ledger);
  }
  if (settled) {
    writes.addEvent(withdrawalChanged(saved, now));
    addStatusOf(writes, wallet, state.others, now);
  }
  // The wallet's other withdrawals look again now: an approval slot on the chain may have freed up.
  if (expired.size > 0 || settled) addWakeWallet(writes, wallet.id, row.id, now);
  await writes.run(tx);
}

/** Legs whose approval deadline passed without quorum fail, their money back in the wallet and their activity `FAILED`. */
function expireLapsedApprovals(writes: Writes, step: WithdrawalStep, legs: StoredLeg[]): Set<PayoutLeg> {
  const { ledger, now } = step;
  const expired = new Set<PayoutLeg>(legs.filter((leg) => approvalLapsed(leg, now)));
  for (const leg of expired) {
    ledger.release(leg.from.id, parseUsd(leg.amountUsd));
    expireLeg(leg, now);
    if (leg.turnkeyActivityId) addEndActivity(writes, leg.turnkeyActivityId, FAILED, now);
  }
  return expired;
}

/** Each leg that now waits for customer approval gets its pending activity, valid for WALLET_APPROVAL_TTL_MS. */
function requestApprovals(
  writes: Writes,
  step: WithdrawalStep,
  row: Withdrawal,
  legs: StoredLeg[],
  planned: ReadonlySet<PayoutLeg>,
  quorum: number,
): void {
  const { env, now } = step;
  for (const leg of legs) {
    if (!planned.has(leg) || leg.status !== 'pending_customer_approval') continue;
    const units = parseUsd(leg.amountUsd).toString();
    const subject: ActivitySubject = {
      withdrawalId: row.id,
      withdrawalLegId: leg.id,
      destinationChain: row.destinationChain,
      destinationToken: row.destinationToken,
      destinationAddress: row.destinationAddress,
      plannedSourceNativeUnits: units,
      displayAmountNativeUnits: units,
      txChain: leg.from.kind === 'yield_source' ? (env.catalogue.find(leg.from.id)?.chain ?? row.destinationChain) : row.destinationChain,
    };
    const validBefore = new Date(now.getTime() + env.config.WALLET_APPROVAL_TTL_MS);
    const activity = addActivity(writes, {
      orgId: row.orgId,
      walletId: row.walletId,
      kind: 'withdrawal_payout',
      quorum,
      subject,
      validBefore,
      now,
    });
    awaitApproval(leg, activity);
  }
}

import type { Withdrawal } from '../../generated/prisma/client.js';
import { settledStatus } from '../domain/payout-legs.js';
import { movedMoney, needsApprovalElsewhere, nextConfirmingLeg, nextRunOf, planLegs, runLegs } from '../domain/withdrawal-progress.js';
import { legsOf } from '../domain/withdrawal-view.js';
import { announceBalance, saveLedger } from '../repositories/positions.repository.js';
import { takePayoutFailure } from '../repositories/sandbox-payout-failures.repository.js';
import { approvalOutstandingElsewhere, saveLegs, settleWithdrawal } from '../repositories/withdrawals.repository.js';
import type { WithdrawalStep } from '../withdrawals/withdrawal-changes.js';

/**
 * One stage of a due withdrawal under the wallet lock: legs leave `planning`, running legs move
 * one stage (sandbox: an armed organization's next leg fails retryably), money of delivered legs
 * leaves the wallet and that of failed legs is freed; once
 * every leg is terminal the withdrawal settles. Changed legs and the settled withdrawal are
 * announced; a stage that changes nothing announces nothing.
 */
export async function advanceWithdrawal(step: WithdrawalStep, row: Withdrawal, requireApproval: boolean): Promise<void> {
  const { tx, wallet, ledger, env, now } = step;
  const legs = legsOf(row).map((leg) => structuredClone(leg));
  const elsewhere = needsApprovalElsewhere(legs, requireApproval) && (await approvalOutstandingElsewhere(tx, row));
  const planned = planLegs(legs, requireApproval, elsewhere);
  // Sandbox: an armed organization's next leg to confirm a transaction fails retryably.
  const next = env.sandbox ? nextConfirmingLeg(legs, planned) : undefined;
  const failsRetryably = next && (await takePayoutFailure(tx, row.orgId)) ? next : undefined;
  const ran = runLegs(ledger, row, legs, { skip: planned, failing: env.failingSources, failsRetryably, env, now });
  const changed = new Set([...planned, ...ran]);
  const saved = await saveLegs(tx, row, legs, changed, nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  if (movedMoney(ran)) {
    const scope = { orgId: row.orgId, observedAt: now };
    await saveLedger(tx, ledger, scope, true);
    await announceBalance(tx, ledger, scope);
  }
  const status = settledStatus(legs);
  if (status) await settleWithdrawal(tx, { wallet, row: saved, legs, status, now });
}

import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@service/events';
import { formatUsd, parseUsd } from '@service/money';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import type { Ledger } from '../domain/ledger.js';
import { balanceFigures, insufficientFunds } from '../domain/errors.js';
import { releaseLeg, restartLeg, settledStatus, skipLeg, TERMINAL_LEG_STATUSES } from '../domain/payout-legs.js';
import { type Destination, drawAmounts, newLeg } from '../domain/payout-plan.js';
import { cancellableLeg, checkCancellable, nextRunOf, payableFrom, retryableLeg } from '../domain/withdrawal-progress.js';
import { legsOf, type StoredLeg } from '../domain/withdrawal-view.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { endActivity } from '../repositories/approvals.repository.js';
import type { Tx } from '../repositories/db.js';
import { addLedger, saveLedger } from '../repositories/positions.repository.js';
import { refreshWalletStatus } from '../repositories/wallets.repository.js';
import { addWithdrawal, reopenWithdrawal, runNow, saveLegs, settleWithdrawal, wakeWallet } from '../repositories/withdrawals.repository.js';
import { Writes } from '../repositories/writes.js';

/** What a change to a withdrawal works with: the transaction, the locked wallet and its positions. */
export interface WithdrawalStep {
  readonly tx: Tx;
  readonly wallet: Wallet;
  readonly ledger: Ledger;
  readonly env: WalletEnvironment;
  readonly now: Date;
}

/** A leg that stops waiting for approval (cancelled) ends its pending activity: no vote can release it any more. */
async function closeApproval(tx: Tx, leg: StoredLeg, now: Date): Promise<void> {
  if (leg.status === 'pending_customer_approval' && leg.turnkeyActivityId) await endActivity(tx, leg.turnkeyActivityId, FAILED, now);
}

/**
 * A withdrawal in `processing` with one `planning` leg per source drawn on, each leg's amount
 * reserved. Two round trips on any executor (plain pg on the create route): the withdrawal, its
 * events and the reserved positions in one statement, then the wallet's status.
 */
export async function createWithdrawal(
  tx: SqlExecutor,
  step: Omit<WithdrawalStep, 'tx'>,
  input: { id: string; destination: Destination; amount: bigint; fee: bigint; requestId: string },
): Promise<Withdrawal> {
  const { wallet, ledger, env, now } = step;
  const draws = drawAmounts(payableFrom(ledger, input.destination, env), input.destination, input.amount);
  for (const draw of draws) ledger.reserve(draw.positionId, draw.amount);
  const legs = draws.map((draw) => newLeg(randomUUID(), draw, input.destination, env.catalogue, now));
  const writes = new Writes();
  const row = addWithdrawal(
    writes,
    {
      id: input.id,
      walletId: wallet.id,
      orgId: wallet.orgId,
      requestId: input.requestId,
      amountRequested: input.amount,
      fee: input.fee,
      destinationChain: input.destination.chain,
      destinationAddress: input.destination.address,
      destinationToken: input.destination.token,
      nextRunAt: now,
      createdAt: now,
    },
    legs,
    now,
  );
  addLedger(writes, ledger, { orgId: wallet.orgId, observedAt: now }, false);
  await writes.run(tx);
  await refreshWalletStatus(tx, wallet, now);
  return row;
}

/** Cancels a withdrawal none of whose legs has been broadcast: every leg is skipped and its money freed. */
export async function cancelWithdrawal(step: WithdrawalStep, row: Withdrawal): Promise<Withdrawal> {
  const { tx, wallet, ledger, env, now } = step;
  const legs = legsOf(row);
  checkCancellable(row, legs);
  // A leg cancelled on its own already freed its money.
  for (const leg of legs.filter((candidate) => !TERMINAL_LEG_STATUSES.has(candidate.status))) {
    await closeApproval(tx, leg, now);
    ledger.release(leg.from.id, parseUsd(leg.amountUsd));
    skipLeg(leg, now);
  }
  await saveLedger(tx, ledger, { orgId: row.orgId, observedAt: now }, false);
  const saved = await saveLegs(tx, row, legs, new Set(legs), nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  return settleWithdrawal(tx, { wallet, row: saved, legs, status: 'cancelled', now });
}

/**
 * Quorum reached on a leg's customer approval: `pending_customer_approval` -> `pending_broadcast`,
 * and the withdrawal runs now. A leg no longer waiting (expired, cancelled) is left as it is.
 */
export async function releaseApprovedLeg(step: WithdrawalStep, row: Withdrawal, legId: string): Promise<StoredLeg | undefined> {
  const { tx, env, now } = step;
  const legs = legsOf(row);
  const leg = legs.find((candidate) => candidate.id === legId);
  if (!leg || leg.status !== 'pending_customer_approval') return leg;
  releaseLeg(leg);
  await wakeWallet(tx, row.walletId, now);
  const saved = await saveLegs(tx, row, legs, new Set([leg]), nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  await runNow(tx, saved.id, now);
  return leg;
}

/** A change to one payout leg: the withdrawal after it and the leg as it now is. */
export interface LegChangeResult {
  readonly withdrawal: Withdrawal;
  readonly leg: StoredLeg;
}

/**
 * Runs a retryably failed leg again: its amount is reserved again on its source and it goes back
 * to `planning` (so the approval policy applies again); a withdrawal that had settled processes
 * again until the leg ends.
 */
export async function retryLeg(step: WithdrawalStep, row: Withdrawal, payoutId: string): Promise<LegChangeResult> {
  const { tx, wallet, ledger, now } = step;
  const legs = legsOf(row);
  const leg = retryableLeg(row, legs, payoutId);
  const amount = parseUsd(leg.amountUsd);
  const available = ledger.available(leg.from.id);
  if (available < amount) {
    throw insufficientFunds(`${leg.from.label} has ${formatUsd(available)} USD free, less than the ${leg.amountUsd} USD of the leg.`, balanceFigures(ledger.positions()));
  }
  ledger.reserve(leg.from.id, amount);
  restartLeg(leg, now);
  await saveLedger(tx, ledger, { orgId: row.orgId, observedAt: now }, false);
  const withdrawal =
    row.status === 'processing'
      ? await saveLegs(tx, row, legs, new Set([leg]), now, now)
      : await reopenWithdrawal(tx, { wallet, row, legs, changed: new Set([leg]), now });
  return { withdrawal, leg };
}

/**
 * Cancels one leg not yet broadcast: its money is freed and it is `cancelled`; once every leg has
 * ended the withdrawal settles (`partially_completed` when another delivered, else `cancelled`).
 */
export async function cancelLeg(step: WithdrawalStep, row: Withdrawal, payoutId: string): Promise<LegChangeResult> {
  const { tx, wallet, ledger, env, now } = step;
  const legs = legsOf(row);
  const leg = cancellableLeg(row, legs, payoutId);
  await closeApproval(tx, leg, now);
  ledger.release(leg.from.id, parseUsd(leg.amountUsd));
  skipLeg(leg, now, 'cancelled');
  await saveLedger(tx, ledger, { orgId: row.orgId, observedAt: now }, false);
  // An approval slot on the chain may have freed up.
  await wakeWallet(tx, row.walletId, now);
  const saved = await saveLegs(tx, row, legs, new Set([leg]), nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  const status = settledStatus(legs);
  const withdrawal = status ? await settleWithdrawal(tx, { wallet, row: saved, legs, status, now }) : saved;
  return { withdrawal, leg };
}

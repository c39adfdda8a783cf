import { parseUsd } from '@service/money';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import type { Ledger } from '../domain/ledger.js';
import { skipLeg } from '../domain/payout-legs.js';
import { type Destination, drawAmounts, newLeg } from '../domain/payout-plan.js';
import { approvableLeg, checkCancellable, nextRunOf, payableFrom } from '../domain/withdrawal-progress.js';
import { legsOf } from '../domain/withdrawal-view.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import type { Tx } from '../repositories/db.js';
import { saveLedger } from '../repositories/positions.repository.js';
import { refreshWalletStatus } from '../repositories/wallets.repository.js';
import { insertWithdrawal, runNow, saveLegs, settleWithdrawal, wakeWallet } from '../repositories/withdrawals.repository.js';

/** What a change to a withdrawal works with: the transaction, the locked wallet and its positions. */
export interface WithdrawalStep {
  readonly tx: Tx;
  readonly wallet: Wallet;
  readonly ledger: Ledger;
  readonly env: WalletEnvironment;
  readonly now: Date;
}

/** A withdrawal in `processing` with one `planning` leg per source drawn on, each leg's amount reserved. */
export async function createWithdrawal(
  step: WithdrawalStep,
  input: { id: string; destination: Destination; amount: bigint; fee: bigint; requestId: string },
): Promise<Withdrawal> {
  const { tx, wallet, ledger, env, now } = step;
  const draws = drawAmounts(payableFrom(ledger, input.destination, env), input.destination, input.amount);
  for (const draw of draws) ledger.reserve(draw.positionId, draw.amount);
  const legs = draws.map((draw) => newLeg(draw, input.destination, env.catalogue, now));
  const row = await insertWithdrawal(
    tx,
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
  await saveLedger(tx, ledger, { orgId: wallet.orgId, observedAt: now }, false);
  await refreshWalletStatus(tx, wallet, now);
  return row;
}

/** Cancels a withdrawal none of whose legs has been broadcast: every leg is skipped and its money freed. */
export async function cancelWithdrawal(step: WithdrawalStep, row: Withdrawal): Promise<Withdrawal> {
  const { tx, wallet, ledger, env, now } = step;
  const legs = legsOf(row);
  checkCancellable(row, legs);
  for (const leg of legs) {
    ledger.release(leg.from.id, parseUsd(leg.amountUsd));
    skipLeg(leg, now);
  }
  await saveLedger(tx, ledger, { orgId: row.orgId, observedAt: now }, false);
  const saved = await saveLegs(tx, row, legs, new Set(legs), nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  return settleWithdrawal(tx, { wallet, row: saved, legs, status: 'cancelled', now });
}

/** An owner's or admin's approval of the leg at `legIndex`: `pending_customer_approval` -> `pending_broadcast`. */
export async function approveLeg(step: WithdrawalStep, row: Withdrawal, legIndex: number): Promise<Withdrawal> {
  const { tx, env, now } = step;
  const legs = legsOf(row);
  const leg = approvableLeg(row, legs, legIndex);
  leg.status = 'pending_broadcast';
  await wakeWallet(tx, row.walletId, now);
  const saved = await saveLegs(tx, row, legs, new Set([leg]), nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS), now);
  return runNow(tx, saved.id, now);
}

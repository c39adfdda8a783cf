import { randomUUID } from 'node:crypto';
import { formatUsd, parseUsd } from '@service/money';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import type { Ledger } from '../domain/ledger.js';
import { balanceFigures, insufficientFunds } from '../domain/errors.js';
import { releaseLeg, restartLeg, settledStatus, skipLeg, TERMINAL_LEG_STATUSES } from '../domain/payout-legs.js';
import { type Destination, drawAmounts, newLeg } from '../domain/payout-plan.js';
import {
  cancellableLeg,
  checkCancellable,
  nextRunOf,
  payableFrom,
  retryableLeg,
  type SettledStatus,
} from '../domain/withdrawal-progress.js';
import { legsOf, type StoredLeg } from '../domain/withdrawal-view.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { addEndActivity } from '../repositories/approvals.repository.js';
import { payoutLegChanged, withdrawalChanged } from '../domain/wallet-events.js';
import { addLedger } from '../repositories/positions.repository.js';
import { recordAccounting } from '../accounting/record-accounting.js';
import type { Running } from '../domain/wallet-status.js';
import { addLegChanges, addReopen, addWakeWallet, addWithdrawal } from '../repositories/withdrawals.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';
import { addStatusOf, refreshWalletStatus } from '../wallets/wallet-status-changes.js';

/**
 * What a change to a withdrawal works with: the transaction (PgPoolSql, or Prisma's where the
 * caller holds one), the locked wallet and its positions. Each change writes everything in one
 * statement (`Writes`), then, when the withdrawal's status changed, the wallet's status. What
 * each change announces is built here (`domain/wallet-events.ts`) and written with it:
 * `portfolio_wallet.withdrawal.status_changed` when the withdrawal is created, settles or
 * reopens; `portfolio_wallet.withdrawal.payout.status_changed` for each leg created or changed;
 * `portfolio_wallet.status_changed` when the wallet's status follows.
 */
export interface WithdrawalStep {
  readonly tx: WalletTx;
  readonly wallet: Wallet;
  readonly ledger: Ledger;
  readonly env: WalletEnvironment;
  readonly now: Date;
}

/** `portfolio_wallet.withdrawal.payout.status_changed` for each leg in `changed`, in the legs' order, as part of the statement's `writes`. */
export function addLegEvents(
  writes: Writes,
  row: Withdrawal,
  legs: readonly StoredLeg[],
  changed: ReadonlySet<StoredLeg>,
  now: Date,
): void {
  for (const leg of legs) if (changed.has(leg)) writes.addEvent(payoutLegChanged(row, leg, now));
}

/** A leg that stops waiting for approval (cancelled) ends its pending activity: no vote can release it any more. */
function closeApproval(writes: Writes, leg: StoredLeg, now: Date): void {
  if (leg.status === 'pending_customer_approval' && leg.turnkeyActivityId) addEndActivity(writes, leg.turnkeyActivityId, FAILED, now);
}

/**
 * Runs `writes` with the legs and when to look again, and with `settled` the withdrawal's end
 * (announced with the changed legs); the wallet's other running withdrawals look again now when
 * `wake` or settled (an approval slot may have freed up). Then, once settled, the wallet's status.
 * The row as written.
 */
async function writeLegs(
  step: WithdrawalStep,
  writes: Writes,
  input: {
    row: Withdrawal;
    legs: StoredLeg[];
    changed: ReadonlySet<StoredLeg>;
    nextRunAt: Date;
    settled: SettledStatus | null;
    wake: boolean;
  },
): Promise<Withdrawal> {
  const { tx, wallet, now } = step;
  const { legs, changed, settled } = input;
  const saved = addLegChanges(writes, { ...input, now });
  addLegEvents(writes, saved, legs, changed, now);
  if (settled) writes.addEvent(withdrawalChanged(saved, now));
  if (settled || input.wake) addWakeWallet(writes, wallet.id, saved.id, now);
  await writes.run(tx);
  if (settled) await refreshWalletStatus(tx, wallet, now);
  return saved;
}

/**
 * A withdrawal in `processing` with one `planning` leg per source drawn on, each leg's amount
 * reserved, announced with its legs. One round trip on any executor (PgPoolSql on the create
 * route): the withdrawal, its events, the reserved positions and the wallet's status in one
 * statement; the status follows
 * from `running`, what else of the wallet was processing when its positions were read under the
 * lock (`ledgerWithRunningQuery`), and this withdrawal.
 */
export async function createWithdrawal(
  tx: WalletTx,
  step: Omit<WithdrawalStep, 'tx'>,
  input: { id: string; destination: Destination; amount: bigint; fee: bigint; requestId: string; running: Running },
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
  );
  writes.addEvent(withdrawalChanged(row, now));
  for (const leg of legsOf(row)) writes.addEvent(payoutLegChanged(row, leg, now));
  recordAccounting(writes, ledger, step.wallet.orgId);
  addLedger(writes, ledger);
  // What else ran was read with the positions under the lock; this withdrawal runs too.
  addStatusOf(writes, wallet, { ...input.running, withdrawals: true }, now);
  await writes.run(tx);
  return row;
}

/** Cancels a withdrawal none of whose legs has been broadcast: every leg is skipped and its money freed. */
export async function cancelWithdrawal(step: WithdrawalStep, row: Withdrawal): Promise<Withdrawal> {
  const { ledger, env, now } = step;
  const legs = legsOf(row);
  checkCancellable(row, legs);
  const writes = new Writes();
  // A leg cancelled on its own already freed its money.
  for (const leg of legs.filter((candidate) => !TERMINAL_LEG_STATUSES.has(candidate.status))) {
    closeApproval(writes, leg, now);
    ledger.release(leg.from.id, parseUsd(leg.amountUsd));
    skipLeg(leg, now);
  }
  recordAccounting(writes, ledger, step.wallet.orgId);
  addLedger(writes, ledger);
  const nextRunAt = nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS);
  return writeLegs(step, writes, { row, legs, changed: new Set(legs), nextRunAt, settled: 'cancelled', wake: false });
}

/**
 * Quorum reached on a leg's customer approval: `pending_customer_approval` -> `pending_broadcast`,
 * and the withdrawal runs now. A leg no longer waiting (expired, cancelled) is left as it is.
 */
export async function releaseApprovedLeg(step: WithdrawalStep, row: Withdrawal, legId: string): Promise<StoredLeg | undefined> {
  const legs = legsOf(row);
  const leg = legs.find((candidate) => candidate.id === legId);
  if (!leg || leg.status !== 'pending_customer_approval') return leg;
  releaseLeg(leg);
  await writeLegs(step, new Writes(), { row, legs, changed: new Set([leg]), nextRunAt: step.now, settled: null, wake: true });
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
    throw insufficientFunds(
      `${leg.from.label} has ${formatUsd(available)} USD free, less than the ${leg.amountUsd} USD of the leg.`,
      balanceFigures(ledger.positions()),
    );
  }
  ledger.reserve(leg.from.id, amount);
  restartLeg(leg, now);
  const writes = new Writes();
  recordAccounting(writes, ledger, step.wallet.orgId);
  addLedger(writes, ledger);
  if (row.status === 'processing') {
    const withdrawal = await writeLegs(step, writes, { row, legs, changed: new Set([leg]), nextRunAt: now, settled: null, wake: false });
    return { withdrawal, leg };
  }
  const withdrawal = addReopen(writes, { row, legs, now });
  writes.addEvent(withdrawalChanged(withdrawal, now));
  addLegEvents(writes, withdrawal, legs, new Set([leg]), now);
  await writes.run(tx);
  await refreshWalletStatus(tx, wallet, now);
  return { withdrawal, leg };
}

/**
 * Cancels one leg not yet broadcast: its money is freed and it is `cancelled`; once every leg has
 * ended the withdrawal settles (`partially_completed` when another delivered, else `cancelled`).
 */
export async function cancelLeg(step: WithdrawalStep, row: Withdrawal, payoutId: string): Promise<LegChangeResult> {
  const { ledger, env, now } = step;
  const legs = legsOf(row);
  const leg = cancellableLeg(row, legs, payoutId);
  const writes = new Writes();
  closeApproval(writes, leg, now);
  ledger.release(leg.from.id, parseUsd(leg.amountUsd));
  skipLeg(leg, now, 'cancelled');
  recordAccounting(writes, ledger, step.wallet.orgId);
  addLedger(writes, ledger);
  // An approval slot on the chain may have freed up: the wallet's other withdrawals look again.
  const nextRunAt = nextRunOf(legs, now, env.config.WALLET_PAYOUT_STEP_MS);
  const withdrawal = await writeLegs(step, writes, {
    row,
    legs,
    changed: new Set([leg]),
    nextRunAt,
    settled: settledStatus(legs),
    wake: true,
  });
  return { withdrawal, leg };
}

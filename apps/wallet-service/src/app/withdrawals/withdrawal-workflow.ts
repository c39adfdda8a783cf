import type { PayoutLeg } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import { groupOfRow } from '../rebalances/plans.js';
import type { Tx } from '../shared/db.js';
import { emitWalletEvent } from '../shared/events.js';
import type { Ledger } from '../shared/ledger.js';
import { groupOfCash } from '../shared/positions.js';
import type { WalletEnvironment } from '../shared/wallet-environment.js';
import { refreshWalletStatus } from '../shared/wallet-status.js';
import { advanceLeg, BROADCAST_LEG_STATUSES, type LegChange, settledStatus, skipLeg, TERMINAL_LEG_STATUSES } from './payout-legs.js';
import { type Destination, drawAmounts, newLeg, sourcesIn } from './payout-plan.js';
import { legsOf, withdrawalView } from './withdrawal-view.js';

/** How long a withdrawal whose legs all wait for a customer sleeps; an approval or cancel wakes it. */
const PARKED_MS = 24 * 3_600_000;
const RUNNING = new Set(['pending_broadcast', 'broadcasted', 'processing']);

interface Step {
  readonly tx: Tx;
  readonly wallet: Wallet;
  readonly ledger: Ledger;
  readonly env: WalletEnvironment;
  readonly now: Date;
}

const scopeOf = (row: Withdrawal, now: Date) => ({ orgId: row.orgId, walletId: row.walletId, observedAt: now });

function announceWithdrawal(tx: Tx, row: Withdrawal, now: Date): Promise<string> {
  return emitWalletEvent(tx, scopeOf(row, now), 'portfolio_wallet.withdrawal.status_changed', { withdrawal: withdrawalView(row) });
}

function announceLeg(tx: Tx, row: Withdrawal, leg: PayoutLeg, now: Date): Promise<string> {
  return emitWalletEvent(tx, scopeOf(row, now), 'portfolio_wallet.withdrawal.payout.status_changed', { withdrawalId: row.id, payoutLeg: leg });
}

/** What the wallet can pay out to a destination: the free money of the destination's allocation group. */
export function payableFrom(ledger: Ledger, destination: Destination, env: WalletEnvironment) {
  const group = groupOfCash({ chain: destination.chain, token: destination.token as 'usdc' | 'usdt' });
  return sourcesIn(ledger.positions(), group, (row) => groupOfRow(row, env));
}

/** Lets every running withdrawal of the wallet look again now (an approval slot may have freed up). */
export async function wakeWallet(tx: Tx, walletId: string, now: Date): Promise<void> {
  await tx.withdrawal.updateMany({ where: { walletId, status: 'processing' }, data: { nextRunAt: now } });
}

/** A withdrawal in `processing` with one `planning` leg per source drawn on, each leg's amount reserved. */
export async function createWithdrawal(
  step: Step,
  input: { id: string; destination: Destination; amount: bigint; fee: bigint; requestId: string },
): Promise<Withdrawal> {
  const { tx, wallet, ledger, env, now } = step;
  const draws = drawAmounts(payableFrom(ledger, input.destination, env), input.destination, input.amount);
  for (const draw of draws) ledger.reserve(draw.positionId, draw.amount);
  const row = await tx.withdrawal.create({
    data: {
      id: input.id,
      walletId: wallet.id,
      orgId: wallet.orgId,
      requestId: input.requestId,
      status: 'processing',
      amountRequested: input.amount,
      fee: input.fee,
      destinationChain: input.destination.chain,
      destinationAddress: input.destination.address,
      destinationToken: input.destination.token,
      payoutLegs: draws.map((draw) => newLeg(draw, input.destination, env.catalogue, now)) as never,
      nextRunAt: now,
      createdAt: now,
    },
  });
  await ledger.save({ orgId: wallet.orgId, observedAt: now }, false);
  await announceWithdrawal(tx, row, now);
  for (const leg of legsOf(row)) await announceLeg(tx, row, leg, now);
  await refreshWalletStatus(tx, wallet, now);
  return row;
}

/** Whether another running withdrawal of the wallet already waits for an approval on this chain. */
async function approvalOutstandingElsewhere(tx: Tx, row: Withdrawal): Promise<boolean> {
  const others = await tx.withdrawal.findMany({
    where: { walletId: row.walletId, destinationChain: row.destinationChain, status: 'processing', id: { not: row.id } },
  });
  return others.some((other) => legsOf(other).some((leg) => leg.status === 'pending_customer_approval'));
}

/**
 * Moves legs out of `planning`: straight to `pending_broadcast` without an approval policy;
 * otherwise to `pending_customer_approval`, one per wallet and chain at a time, the others
 * `waiting_for_prior_approval`. Returns the legs that changed.
 */
async function planLegs(tx: Tx, row: Withdrawal, legs: PayoutLeg[], requireApproval: boolean): Promise<Set<PayoutLeg>> {
  const changed = new Set<PayoutLeg>();
  const waiting = legs.filter((leg) => leg.status === 'planning' || leg.status === 'waiting_for_prior_approval');
  if (waiting.length === 0) return changed;
  let outstanding = requireApproval && (legs.some((leg) => leg.status === 'pending_customer_approval') || (await approvalOutstandingElsewhere(tx, row)));
  for (const leg of waiting) {
    const next = !requireApproval ? 'pending_broadcast' : outstanding ? 'waiting_for_prior_approval' : 'pending_customer_approval';
    if (next === 'pending_customer_approval') outstanding = true;
    if (next === leg.status) continue;
    leg.status = next;
    changed.add(leg);
  }
  return changed;
}

function stepChains(leg: PayoutLeg, row: Withdrawal, env: WalletEnvironment): string[] {
  if (leg.from.kind !== 'yield_source') return [row.destinationChain];
  return [env.catalogue.find(leg.from.id)?.chain ?? row.destinationChain, row.destinationChain];
}

/** Runs one stage of each leg that may run; moves the money of a leg that delivered or failed. */
function runLegs(step: Step, row: Withdrawal, legs: PayoutLeg[], skip: Set<PayoutLeg>): Set<PayoutLeg> {
  const { ledger, env, now } = step;
  const changed = new Set<PayoutLeg>();
  const failing = env.sandbox ? env.config.WALLET_SANDBOX_FAILING_SOURCES : [];
  for (const leg of legs) {
    if (skip.has(leg) || !RUNNING.has(leg.status)) continue;
    const change: LegChange = advanceLeg(leg, { chains: stepChains(leg, row, env), fails: failing.includes(leg.from.id), now });
    if (change === 'none') continue;
    changed.add(leg);
    if (change === 'moved') continue;
    const amount = parseUsd(leg.amountUsd);
    ledger.release(leg.from.id, amount);
    if (change === 'completed') ledger.debit(leg.from.id, amount);
  }
  return changed;
}

function deliveredOf(legs: readonly PayoutLeg[]): bigint {
  return legs.filter((leg) => leg.status === 'completed').reduce((sum, leg) => sum + parseUsd(leg.amountUsd), 0n);
}

function failureReasonOf(status: string, legs: readonly PayoutLeg[], fee: bigint): string | null {
  const failed = legs.filter((leg) => leg.status === 'failed');
  if (status === 'failed') return `Every payout leg failed; ${formatUsd(failed.reduce((sum, leg) => sum + parseUsd(leg.amountUsd), 0n))} USD stays in the wallet.`;
  if (status !== 'partially_completed') return null;
  const back = failed.reduce((sum, leg) => sum + parseUsd(leg.amountUsd), 0n);
  return `${failed.length} of ${legs.length} payout legs failed (${failed.map((leg) => leg.from.label).join(', ')}); ${formatUsd(back)} USD stays in the wallet, the fee of ${formatUsd(fee)} USD was charged once.`;
}

/** Ends a withdrawal whose legs are all terminal: its status, what was paid (delivered minus the fee). */
async function settle(step: Step, row: Withdrawal, legs: PayoutLeg[], status: 'completed' | 'partially_completed' | 'failed' | 'cancelled'): Promise<Withdrawal> {
  const { tx, wallet, now } = step;
  const delivered = deliveredOf(legs);
  const paid = delivered > row.fee ? delivered - row.fee : 0n;
  const done = await tx.withdrawal.update({
    where: { id: row.id },
    data: {
      status,
      payoutLegs: legs as never,
      amountPaid: delivered > 0n ? paid : null,
      failureReason: failureReasonOf(status, legs, row.fee),
      completedAt: now,
    },
  });
  await announceWithdrawal(tx, done, now);
  await refreshWalletStatus(tx, wallet, now);
  await wakeWallet(tx, wallet.id, now);
  return done;
}

async function saveLegs(step: Step, row: Withdrawal, legs: PayoutLeg[], changed: Set<PayoutLeg>): Promise<Withdrawal> {
  const { tx, env, now } = step;
  const running = legs.some((leg) => leg.status === 'planning' || RUNNING.has(leg.status));
  const nextRunAt = new Date(now.getTime() + (running ? env.config.WALLET_PAYOUT_STEP_MS : PARKED_MS));
  const saved = await tx.withdrawal.update({ where: { id: row.id }, data: { payoutLegs: legs as never, nextRunAt } });
  for (const leg of legs) if (changed.has(leg)) await announceLeg(tx, saved, leg, now);
  return saved;
}

/**
 * One stage of a due withdrawal under the wallet lock: legs leave `planning`, running legs move
 * one stage, money of delivered legs leaves the wallet and that of failed legs is freed; once
 * every leg is terminal the withdrawal settles. Changed legs and the settled withdrawal are
 * announced; a stage that changes nothing announces nothing.
 */
export async function advanceWithdrawal(step: Step, row: Withdrawal, requireApproval: boolean): Promise<void> {
  const legs = legsOf(row).map((leg) => structuredClone(leg));
  const planned = await planLegs(step.tx, row, legs, requireApproval);
  const ran = runLegs(step, row, legs, planned);
  const changed = new Set([...planned, ...ran]);
  const saved = await saveLegs(step, row, legs, changed);
  if ([...ran].some((leg) => TERMINAL_LEG_STATUSES.has(leg.status))) {
    const scope = { orgId: row.orgId, observedAt: step.now };
    await step.ledger.save(scope, true);
    await step.ledger.announceBalance(scope);
  }
  const status = settledStatus(legs);
  if (status) await settle(step, saved, legs, status);
}

/** Cancels a withdrawal none of whose legs has been broadcast: every leg is skipped and its money freed. */
export async function cancelWithdrawal(step: Step, row: Withdrawal): Promise<Withdrawal> {
  if (row.status === 'cancelled') throw new ServiceError('withdrawal_already_cancelled', `Withdrawal ${row.id} is already cancelled.`);
  if (row.status !== 'processing') throw new ServiceError('withdrawal_not_cancellable', `Withdrawal ${row.id} is ${row.status} and can no longer be cancelled.`);
  const legs = legsOf(row);
  if (legs.some((leg) => BROADCAST_LEG_STATUSES.has(leg.status))) {
    throw new ServiceError('withdrawal_payout_in_progress', `A payout of withdrawal ${row.id} has been broadcast; it can no longer be cancelled.`);
  }
  for (const leg of legs) {
    step.ledger.release(leg.from.id, parseUsd(leg.amountUsd));
    skipLeg(leg, step.now);
  }
  await step.ledger.save({ orgId: row.orgId, observedAt: step.now }, false);
  const saved = await saveLegs(step, row, legs, new Set(legs));
  return settle(step, saved, legs, 'cancelled');
}

/** An owner's or admin's approval of the leg at `legIndex`: `pending_customer_approval` -> `pending_broadcast`. */
export async function approveLeg(step: Step, row: Withdrawal, legIndex: number): Promise<Withdrawal> {
  const legs = legsOf(row);
  const leg = legs[legIndex];
  if (!leg) throw new ServiceError('payout_not_found', `Withdrawal ${row.id} has no payout leg ${legIndex}.`);
  if (TERMINAL_LEG_STATUSES.has(leg.status)) throw new ServiceError('payout_already_terminal', `Payout leg ${legIndex} is already ${leg.status}.`);
  if (RUNNING.has(leg.status)) throw new ServiceError('payout_in_progress', `Payout leg ${legIndex} is already ${leg.status}.`);
  if (leg.status !== 'pending_customer_approval') {
    throw new ServiceError('workflow_conflict', `Payout leg ${legIndex} is ${leg.status}; it waits for an earlier approval on this chain first.`);
  }
  leg.status = 'pending_broadcast';
  await wakeWallet(step.tx, row.walletId, step.now);
  const saved = await saveLegs(step, row, legs, new Set([leg]));
  return step.tx.withdrawal.update({ where: { id: saved.id }, data: { nextRunAt: step.now } });
}

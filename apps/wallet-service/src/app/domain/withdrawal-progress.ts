import type { PayoutLeg } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';
import { feeShare } from './accounting-ledger/entries.js';
import type { WalletChains } from './chains.js';
import type { Ledger } from './ledger.js';
import { advanceLeg, BROADCAST_LEG_STATUSES, type LegChange, TERMINAL_LEG_STATUSES } from './payout-legs.js';
import { type Destination, sourcesIn } from './payout-plan.js';
import { groupOfCash } from './positions.js';
import { groupOfRow } from './rebalance-plans.js';
import type { WithdrawalRecord } from './records.js';
import type { StoredLeg } from './withdrawal-view.js';

/** How long a withdrawal whose legs all wait for a customer sleeps; an approval or cancel wakes it. */
const PARKED_MS = 24 * 3_600_000;
/** Leg statuses a stage moves on by itself. */
const RUNNING: ReadonlySet<string> = new Set(['pending_broadcast', 'broadcasted', 'processing']);

export type SettledStatus = 'completed' | 'partially_completed' | 'failed' | 'cancelled';

/** What the wallet can pay out to a destination: the free money of the destination's allocation group. */
export function payableFrom(ledger: Ledger, destination: Destination, env: WalletChains) {
  const group = groupOfCash({ chain: destination.chain, token: destination.token as 'usdc' | 'usdt' });
  return sourcesIn(ledger.positions(), group, (row) => groupOfRow(row, env));
}

function isWaiting(leg: PayoutLeg): boolean {
  return leg.status === 'planning' || leg.status === 'waiting_for_prior_approval';
}

/**
 * Whether planning these legs depends on another withdrawal of the wallet waiting for an approval
 * on the same chain: only when a leg waits, approval is required and none of these legs holds
 * the chain's one outstanding approval already.
 */
export function needsApprovalElsewhere(legs: readonly PayoutLeg[], requireApproval: boolean): boolean {
  return requireApproval && legs.some(isWaiting) && !legs.some((leg) => leg.status === 'pending_customer_approval');
}

/**
 * Moves legs out of `planning`: straight to `pending_broadcast` without an approval policy;
 * otherwise to `pending_customer_approval`, one per wallet and chain at a time, the others
 * `waiting_for_prior_approval`. Returns the legs that changed.
 */
export function planLegs(legs: PayoutLeg[], requireApproval: boolean, approvalOutstandingElsewhere: boolean): Set<PayoutLeg> {
  const changed = new Set<PayoutLeg>();
  const waiting = legs.filter(isWaiting);
  if (waiting.length === 0) return changed;
  let outstanding = requireApproval && (legs.some((leg) => leg.status === 'pending_customer_approval') || approvalOutstandingElsewhere);
  for (const leg of waiting) {
    const next = !requireApproval ? 'pending_broadcast' : outstanding ? 'waiting_for_prior_approval' : 'pending_customer_approval';
    if (next === 'pending_customer_approval') outstanding = true;
    if (next === leg.status) continue;
    leg.status = next;
    changed.add(leg);
  }
  return changed;
}

function stepChains(leg: PayoutLeg, row: WithdrawalRecord, env: WalletChains): string[] {
  if (leg.from.kind !== 'yield_source') return [row.destinationChain];
  return [env.catalogue.find(leg.from.id)?.chain ?? row.destinationChain, row.destinationChain];
}

/** Leg statuses whose next stage confirms a transaction (where a leg can fail). */
const CONFIRMING: ReadonlySet<string> = new Set(['broadcasted', 'processing']);

/** The leg whose transaction this stage confirms first (not one in `skip`): the next payout, for a sandbox failure. */
export function nextConfirmingLeg(legs: readonly StoredLeg[], skip: ReadonlySet<PayoutLeg>): StoredLeg | undefined {
  return legs.find((leg) => !skip.has(leg) && CONFIRMING.has(leg.status));
}

/**
 * Runs one stage of each leg that may run (not those in `skip`); moves the money of a leg that
 * delivered (it leaves the wallet) or failed (it is freed). `failing` lists the sources whose legs
 * fail for good (sandbox); `failsRetryably` is a leg that fails and may be retried. Returns the
 * legs that changed.
 */
export function runLegs(
  ledger: Ledger,
  row: WithdrawalRecord,
  legs: StoredLeg[],
  input: { skip: ReadonlySet<PayoutLeg>; failing: readonly string[]; failsRetryably?: StoredLeg; env: WalletChains; now: Date },
): Set<PayoutLeg> {
  const changed = new Set<PayoutLeg>();
  for (const leg of legs) {
    if (input.skip.has(leg) || !RUNNING.has(leg.status)) continue;
    const retryable = leg === input.failsRetryably;
    const fails = retryable || input.failing.includes(leg.from.id);
    const change: LegChange = advanceLeg(leg, { chains: stepChains(leg, row, input.env), fails, now: input.now });
    if (change === 'none') continue;
    if (change === 'failed' && retryable) leg.retryable = true;
    changed.add(leg);
    if (change === 'moved') continue;
    const amount = parseUsd(leg.amountUsd);
    ledger.release(leg.from.id, amount);
    if (change === 'completed') {
      // The delivered leg pays the part of the flat fee earlier legs did not (accounting: `fee`, then `payout`).
      const fee = feeShare(row.fee, deliveredOf(legs.filter((other) => other !== leg)), amount);
      ledger.payOut(leg.from.id, amount, fee, {
        type: 'withdrawal',
        id: row.id,
        chain: row.destinationChain,
        token: row.destinationToken,
        txHash: leg.steps.findLast((step) => step.txHash)?.txHash ?? null,
      });
    }
  }
  return changed;
}

/**
 * When the withdrawal looks again: after a stage while a leg runs or plans, else once parked, or
 * at the deadline of a leg waiting for approval if that comes first (the leg then fails).
 */
export function nextRunOf(legs: readonly PayoutLeg[], now: Date, stepMs: number): Date {
  const running = legs.some((leg) => leg.status === 'planning' || RUNNING.has(leg.status));
  const deadlines = legs
    .filter((leg) => leg.status === 'pending_customer_approval' && leg.approvalValidBefore)
    .map((leg) => Date.parse(leg.approvalValidBefore as string));
  return new Date(Math.min(now.getTime() + (running ? stepMs : PARKED_MS), ...deadlines));
}

function deliveredOf(legs: readonly PayoutLeg[]): bigint {
  return legs.filter((leg) => leg.status === 'completed').reduce((sum, leg) => sum + parseUsd(leg.amountUsd), 0n);
}

/** Why legs that waited for customer approval failed: the deadline passed without quorum. */
function expiredNote(legs: readonly StoredLeg[]): string {
  const expired = legs.filter((leg) => leg.approvalExpired);
  if (expired.length === 0) return '';
  return ` Customer approval expired without quorum for ${expired.map((leg) => leg.from.label).join(', ')}.`;
}

function failureReasonOf(status: string, legs: readonly StoredLeg[], fee: bigint): string | null {
  const unpaid = legs.filter((leg) => leg.status === 'failed' || leg.status === 'cancelled');
  const back = formatUsd(unpaid.reduce((sum, leg) => sum + parseUsd(leg.amountUsd), 0n));
  if (status === 'failed') return `No payout leg delivered; ${back} USD stays in the wallet.${expiredNote(legs)}`;
  if (status !== 'partially_completed') return null;
  const failed = unpaid.filter((leg) => leg.status === 'failed').length;
  const cancelled = unpaid.length - failed;
  const what = [failed > 0 ? `${failed} failed` : '', cancelled > 0 ? `${cancelled} cancelled` : ''].filter(Boolean).join(', ');
  return `${unpaid.length} of ${legs.length} payout legs did not deliver (${what}: ${unpaid.map((leg) => leg.from.label).join(', ')}); ${back} USD stays in the wallet, the fee of ${formatUsd(fee)} USD was charged once.${expiredNote(legs)}`;
}

/** How a withdrawal whose legs are all terminal ends: what was paid (delivered minus the fee) and why not all. */
export function settlementOf(
  legs: readonly StoredLeg[],
  fee: bigint,
  status: SettledStatus,
): { amountPaid: bigint | null; failureReason: string | null } {
  const delivered = deliveredOf(legs);
  const paid = delivered > fee ? delivered - fee : 0n;
  return { amountPaid: delivered > 0n ? paid : null, failureReason: failureReasonOf(status, legs, fee) };
}

/** Whether the stage moved money: a leg that ran reached its end. */
export function movedMoney(ran: ReadonlySet<PayoutLeg>): boolean {
  return [...ran].some((leg) => TERMINAL_LEG_STATUSES.has(leg.status));
}

/** A withdrawal can be cancelled while it processes and none of its legs has been broadcast. */
export function checkCancellable(row: WithdrawalRecord, legs: readonly PayoutLeg[]): void {
  if (row.status === 'cancelled') throw new ServiceError('withdrawal_already_cancelled', `Withdrawal ${row.id} is already cancelled.`);
  if (row.status !== 'processing')
    throw new ServiceError('withdrawal_not_cancellable', `Withdrawal ${row.id} is ${row.status} and can no longer be cancelled.`);
  if (legs.some((leg) => BROADCAST_LEG_STATUSES.has(leg.status))) {
    throw new ServiceError(
      'withdrawal_payout_in_progress',
      `A payout of withdrawal ${row.id} has been broadcast; it can no longer be cancelled.`,
    );
  }
}

/** The leg with this id; `payout_not_found` otherwise. */
export function legById(row: WithdrawalRecord, legs: readonly StoredLeg[], payoutId: string): StoredLeg {
  const leg = legs.find((candidate) => candidate.id === payoutId);
  if (!leg) throw new ServiceError('payout_not_found', `Withdrawal ${row.id} has no payout leg ${payoutId}.`);
  return leg;
}

/** A `failed` leg whose failure is retryable; otherwise why it cannot be retried. */
export function retryableLeg(row: WithdrawalRecord, legs: readonly StoredLeg[], payoutId: string): StoredLeg {
  const leg = legById(row, legs, payoutId);
  if (leg.status === 'failed') {
    if (leg.retryable) return leg;
    throw new ServiceError('payout_not_retryable', `Payout leg ${payoutId} failed for good; it cannot be retried.`);
  }
  if (TERMINAL_LEG_STATUSES.has(leg.status))
    throw new ServiceError('payout_already_terminal', `Payout leg ${payoutId} is already ${leg.status}.`);
  throw new ServiceError('payout_in_progress', `Payout leg ${payoutId} is ${leg.status}; only a failed leg can be retried.`);
}

/** A leg not yet broadcast; otherwise why it cannot be cancelled. */
export function cancellableLeg(row: WithdrawalRecord, legs: readonly StoredLeg[], payoutId: string): StoredLeg {
  const leg = legById(row, legs, payoutId);
  if (TERMINAL_LEG_STATUSES.has(leg.status))
    throw new ServiceError('payout_already_terminal', `Payout leg ${payoutId} is already ${leg.status}.`);
  if (BROADCAST_LEG_STATUSES.has(leg.status)) {
    throw new ServiceError(
      'payout_in_progress',
      `Payout leg ${payoutId} has been broadcast (${leg.status}); it can no longer be cancelled.`,
    );
  }
  return leg;
}

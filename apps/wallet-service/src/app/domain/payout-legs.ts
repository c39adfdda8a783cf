import type { PayoutLeg } from '@service/contracts';
import { simulatedTxHash } from './addresses/tx-hash.js';
import type { StoredLeg } from './withdrawal-view.js';

/** Leg statuses no step changes any more (a retry may run a retryable `failed` leg again). */
export const TERMINAL_LEG_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'skipped', 'cancelled']);
/** Leg statuses whose transactions are on chain (or done): a withdrawal can no longer be cancelled. */
export const BROADCAST_LEG_STATUSES: ReadonlySet<string> = new Set(['broadcasted', 'processing', 'completed', 'failed']);

export type LegChange = 'none' | 'moved' | 'completed' | 'failed';

function submitStep(leg: PayoutLeg, chains: readonly string[]): void {
  const step = leg.steps[leg.stepsCompleted];
  if (!step) return;
  Object.assign(step, {
    status: 'processing',
    txHash: simulatedTxHash(chains[leg.stepsCompleted] ?? chains[0] ?? ''),
    txStatus: 'submitted',
  });
}

/**
 * One stage of a leg that may run (approved or needing no approval): `pending_broadcast` submits
 * its first transaction (`broadcasted`); each later stage confirms the current transaction and
 * submits the next (`processing`) until the last is confirmed (`completed`). A leg meant to fail
 * fails on its first confirmation. `chains` is the chain of each step's transaction.
 */
export function advanceLeg(leg: PayoutLeg, input: { chains: readonly string[]; fails: boolean; now: Date }): LegChange {
  if (leg.status === 'pending_broadcast') {
    submitStep(leg, input.chains);
    leg.status = 'broadcasted';
    return 'moved';
  }
  if (leg.status !== 'broadcasted' && leg.status !== 'processing') return 'none';
  const step = leg.steps[leg.stepsCompleted];
  if (!step) return 'none';
  if (input.fails) {
    Object.assign(step, { status: 'failed', txStatus: 'failed' });
    Object.assign(leg, { status: 'failed', completedAt: input.now.toISOString() });
    return 'failed';
  }
  Object.assign(step, { status: 'completed', txStatus: 'confirmed' });
  leg.stepsCompleted += 1;
  if (leg.stepsCompleted === leg.stepsTotal) {
    Object.assign(leg, { status: 'completed', completedAt: input.now.toISOString() });
    return 'completed';
  }
  submitStep(leg, input.chains);
  leg.status = 'processing';
  return 'moved';
}

/** A leg that will not run: `skipped` (its withdrawal was cancelled) or `cancelled` (this leg was); its steps are `skipped`. */
export function skipLeg(leg: PayoutLeg, now: Date, status: 'skipped' | 'cancelled' = 'skipped'): void {
  for (const step of leg.steps) step.status = 'skipped';
  Object.assign(leg, { status, completedAt: now.toISOString() });
}

/** A retried leg: back to `planning` with fresh steps, as if new (a new approval if the policy asks for one). */
export function restartLeg(leg: StoredLeg, now: Date): void {
  for (const step of leg.steps) Object.assign(step, { status: 'pending', txHash: null, txStatus: null });
  Object.assign(leg, { status: 'planning', startedAt: now.toISOString(), completedAt: null, stepsCompleted: 0 });
  delete leg.retryable;
  delete leg.approvalExpired;
}

/** The leg's external payout step: the transfer out, its last step. */
function payoutStep(leg: PayoutLeg) {
  return leg.steps[leg.steps.length - 1];
}

/**
 * A leg parked for customer approval: the activity approvers vote on and its deadline; its
 * external payout step shows `pending_customer_approval` too.
 */
export function awaitApproval(leg: PayoutLeg, activity: { id: string; createdAt: Date; validBefore: Date }): void {
  Object.assign(leg, {
    turnkeyActivityId: activity.id,
    approvalRequestedAt: activity.createdAt.toISOString(),
    approvalValidBefore: activity.validBefore.toISOString(),
  });
  const step = payoutStep(leg);
  if (step) step.status = 'pending_customer_approval';
}

/** Quorum reached: the leg may run (`pending_broadcast`), its payout step back to `pending`. */
export function releaseLeg(leg: PayoutLeg): void {
  leg.status = 'pending_broadcast';
  const step = payoutStep(leg);
  if (step?.status === 'pending_customer_approval') step.status = 'pending';
}

/** Whether a leg waiting for approval has passed its deadline. */
export function approvalLapsed(leg: PayoutLeg, now: Date): boolean {
  return (
    leg.status === 'pending_customer_approval' && leg.approvalValidBefore != null && Date.parse(leg.approvalValidBefore) <= now.getTime()
  );
}

/** A leg whose approval deadline passed without quorum: `failed`, nothing sent (steps skipped). */
export function expireLeg(leg: StoredLeg, now: Date): void {
  for (const step of leg.steps) step.status = 'skipped';
  Object.assign(leg, { status: 'failed', completedAt: now.toISOString(), approvalExpired: true });
}

/**
 * The withdrawal's status once every leg is terminal: `completed` when each delivered (or was skipped),
 * `partially_completed` when some delivered and another failed or was cancelled, `failed` when
 * none delivered and one failed, `cancelled` when every leg was cancelled; null while a leg is
 * still running.
 */
export function settledStatus(legs: readonly PayoutLeg[]): 'completed' | 'partially_completed' | 'failed' | 'cancelled' | null {
  if (!legs.every((leg) => TERMINAL_LEG_STATUSES.has(leg.status))) return null;
  const delivered = legs.some((leg) => leg.status === 'completed');
  const failed = legs.some((leg) => leg.status === 'failed');
  const cancelled = legs.some((leg) => leg.status === 'cancelled');
  if (!failed && !cancelled) return delivered ? 'completed' : 'cancelled';
  if (delivered) return 'partially_completed';
  return failed ? 'failed' : 'cancelled';
}

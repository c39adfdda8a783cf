import type { RiskActionDecision, RiskActionStatus } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { Spelling } from './spelling.js';

/**
 * The action an alert of a rule creates, if any, and the status it starts in:
 * - `alert` creates none;
 * - a block (`prevent_additional_allocation`) is in effect while the alert is open: `executed` at
 *   once when automatic, `pending_approval` until approved otherwise (then `executed`);
 * - an exit (`exit_position`) is `pending_auto_execution` when automatic, and the engine moves it
 *   to `executing` at once (in the same transaction); `pending_approval` otherwise, `executing`
 *   once approved. wallet-service runs an `executing` exit as a rebalance whose `requestId` is the
 *   action id; its rebalance events make the action `executed` or `failed` (`domain/exits.ts`).
 */
export function initialActionStatus(spelling: Spelling): RiskActionStatus | undefined {
  if (spelling.outcome === 'alert') return undefined;
  if (spelling.approvalMode === 'approval_required') return 'pending_approval';
  return spelling.outcome === 'prevent_additional_allocation' ? 'executed' : 'pending_auto_execution';
}

/** Statuses an action is still waiting in: a resolved alert, a paused, changed or deleted rule rejects them. */
export const PENDING_ACTION_STATUSES: readonly RiskActionStatus[] = ['pending_approval', 'pending_auto_execution'];

/** The status an approval or a rejection moves a `pending_approval` action to (`risk_action_not_pending` from any other). */
export function decide(spelling: Spelling, current: RiskActionStatus, decision: RiskActionDecision): RiskActionStatus {
  if (current !== 'pending_approval') {
    throw new ServiceError(
      'risk_action_not_pending',
      `The action is ${current}: only a pending_approval action can be approved or rejected.`,
    );
  }
  if (decision === 'rejected') return 'rejected';
  return spelling.outcome === 'prevent_additional_allocation' ? 'executed' : 'executing';
}

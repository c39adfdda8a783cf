import type { RiskActionKind, RiskApprovalMode, RiskOutcome } from '@service/contracts';
import { ServiceError } from '@service/errors';

/**
 * What happens on breach, in both spellings the real API documents: the reference's `action`
 * and the guide's `outcome` with `approvalMode`. A rule stores `action`; both are returned.
 *
 *   alert_only            = alert
 *   block_rebalance_buy   = prevent_additional_allocation (automatic or approval_required)
 *   request_rebalance_out = exit_position + approval_required
 *   auto_rebalance_out    = exit_position + automatic
 *
 * `block_rebalance_buy` alone is automatic; with `approvalMode: approval_required` (given beside
 * it or with `outcome`) the block waits for an approval. The approval mode of such a block is
 * kept in the stored action as `block_rebalance_buy:approval_required`.
 */
export interface Spelling {
  readonly action: RiskActionKind;
  readonly outcome: RiskOutcome;
  readonly approvalMode: RiskApprovalMode | null;
}

export interface SpellingInput {
  readonly action?: RiskActionKind;
  readonly outcome?: RiskOutcome;
  readonly approvalMode?: RiskApprovalMode;
}

const invalid = (message: string) => new ServiceError('validation_error', message);

/** The guide's spelling of a reference action (a block's approval mode is the one given, else automatic). */
export function spellingOfAction(action: RiskActionKind, blockApproval: RiskApprovalMode = 'automatic'): Spelling {
  switch (action) {
    case 'alert_only':
      return { action, outcome: 'alert', approvalMode: null };
    case 'block_rebalance_buy':
      return { action, outcome: 'prevent_additional_allocation', approvalMode: blockApproval };
    case 'request_rebalance_out':
      return { action, outcome: 'exit_position', approvalMode: 'approval_required' };
    case 'auto_rebalance_out':
      return { action, outcome: 'exit_position', approvalMode: 'automatic' };
  }
}

/** The reference's spelling of an outcome and approval mode. */
function actionOf(outcome: RiskOutcome, approvalMode: RiskApprovalMode | undefined): Spelling {
  if (outcome === 'alert') {
    if (approvalMode !== undefined) throw invalid('approvalMode is refused for the alert outcome.');
    return spellingOfAction('alert_only');
  }
  if (approvalMode === undefined) throw invalid(`approvalMode is required for the ${outcome} outcome.`);
  if (outcome === 'prevent_additional_allocation') return spellingOfAction('block_rebalance_buy', approvalMode);
  return spellingOfAction(approvalMode === 'automatic' ? 'auto_rebalance_out' : 'request_rebalance_out');
}

/**
 * The spelling a request asks for: from `action`, from `outcome` + `approvalMode`, or both when
 * they agree (`validation_error` when they do not); undefined when it names none of them.
 */
export function resolveSpelling(input: SpellingInput): Spelling | undefined {
  const { action, outcome, approvalMode } = input;
  if (action === undefined && outcome === undefined) {
    if (approvalMode !== undefined) throw invalid('approvalMode needs an outcome (or an action) beside it.');
    return undefined;
  }
  if (action === undefined) return actionOf(outcome as RiskOutcome, approvalMode);
  const fromAction = spellingOfAction(action, action === 'block_rebalance_buy' ? approvalMode : undefined);
  if (outcome !== undefined && outcome !== fromAction.outcome) {
    throw invalid(`action ${action} and outcome ${outcome} disagree: ${action} is the ${fromAction.outcome} outcome.`);
  }
  if (approvalMode !== undefined && approvalMode !== fromAction.approvalMode) {
    throw invalid(
      fromAction.approvalMode === null
        ? `approvalMode is refused for action ${action} (the alert outcome).`
        : `action ${action} and approvalMode ${approvalMode} disagree: ${action} is ${fromAction.approvalMode}.`,
    );
  }
  return fromAction;
}

/** A stored action: the reference spelling, with a block's approval mode when it needs approval. */
export function storedAction(spelling: Spelling): string {
  return spelling.action === 'block_rebalance_buy' && spelling.approvalMode === 'approval_required'
    ? 'block_rebalance_buy:approval_required'
    : spelling.action;
}

/** The spelling of a stored action. */
export function spellingOfStored(stored: string): Spelling {
  if (stored === 'block_rebalance_buy:approval_required') return spellingOfAction('block_rebalance_buy', 'approval_required');
  return spellingOfAction(stored as RiskActionKind);
}

/** The reference actions of each outcome (the `outcome` filter of the actions list). */
export const RISK_OUTCOME_ACTIONS: Readonly<Record<RiskOutcome, readonly RiskActionKind[]>> = {
  alert: ['alert_only'],
  prevent_additional_allocation: ['block_rebalance_buy'],
  exit_position: ['request_rebalance_out', 'auto_rebalance_out'],
};

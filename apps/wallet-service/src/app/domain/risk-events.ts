import type { AnyDomainEvent, RiskActionObject, RiskAlertObject } from '@service/contracts';

/**
 * What wallet-service makes of a risk event (risk-service's `portfolio_wallet.risk.*`), as its
 * projection of allocation blocks and pending exits needs it:
 *
 * - a `prevent_additional_allocation` action `executed`: its source is blocked for its wallet
 *   (until its alert resolves), `rejected`: any block of it lifts;
 * - an `exit_position` action `executing`: the exit rebalance runs (once per action);
 * - an alert `resolved`: the blocks of its actions lift, and later `executed` events of them block nothing.
 *
 * Every other risk event (an alert triggered, an action in another status, an unwind) changes
 * nothing here. A payload without what its kind needs is `malformed`.
 */
export type RiskEffect =
  | { kind: 'block'; action: BlockAction }
  | { kind: 'unblock'; action: BlockAction }
  | { kind: 'exit'; action: ExitAction }
  | { kind: 'alert_resolved'; alertId: string; orgId: string }
  | { kind: 'none' }
  | { kind: 'malformed'; reason: string };

export interface BlockAction {
  readonly actionId: string;
  readonly orgId: string;
  readonly walletId: string;
  readonly yieldSourceId: string;
  readonly riskAlertId: string;
}

export type ExitAction = BlockAction;

/** The two spellings of what a rule does on breach: the guide's `outcome`, or the reference's `action`. */
function outcomeOf(action: Partial<RiskActionObject>): string | undefined {
  if (typeof action.outcome === 'string' && action.outcome !== '') return action.outcome;
  switch (action.action) {
    case 'block_rebalance_buy':
      return 'prevent_additional_allocation';
    case 'request_rebalance_out':
    case 'auto_rebalance_out':
      return 'exit_position';
    default:
      return undefined;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function actionOf(event: AnyDomainEvent, raw: Partial<RiskActionObject>): BlockAction | string {
  const { id, portfolioWalletId, yieldSourceId, riskAlertId } = raw;
  if (typeof id !== 'string' || !UUID.test(id)) return 'action.id is not a uuid';
  if (typeof portfolioWalletId !== 'string' || !UUID.test(portfolioWalletId)) return 'action.portfolioWalletId is not a uuid';
  if (typeof riskAlertId !== 'string' || !UUID.test(riskAlertId)) return 'action.riskAlertId is not a uuid';
  if (typeof yieldSourceId !== 'string' || yieldSourceId === '') return 'action.yieldSourceId is missing';
  const orgId = typeof raw.organizationId === 'string' && raw.organizationId !== '' ? raw.organizationId : event.orgId;
  return {
    actionId: id.toLowerCase(),
    orgId,
    walletId: portfolioWalletId.toLowerCase(),
    yieldSourceId,
    riskAlertId: riskAlertId.toLowerCase(),
  };
}

export function riskEffectOf(event: AnyDomainEvent): RiskEffect {
  if (event.type === 'portfolio_wallet.risk.action.status_changed') {
    const raw = (event.payload as { action?: Partial<RiskActionObject> } | undefined)?.action;
    if (!raw || typeof raw !== 'object') return { kind: 'malformed', reason: 'no action' };
    const outcome = outcomeOf(raw);
    const wanted =
      (outcome === 'prevent_additional_allocation' && (raw.status === 'executed' || raw.status === 'rejected')) ||
      (outcome === 'exit_position' && raw.status === 'executing');
    if (!wanted) return { kind: 'none' };
    const action = actionOf(event, raw);
    if (typeof action === 'string') return { kind: 'malformed', reason: action };
    if (outcome === 'exit_position') return { kind: 'exit', action };
    return raw.status === 'executed' ? { kind: 'block', action } : { kind: 'unblock', action };
  }
  if (event.type === 'portfolio_wallet.risk.alert.resolved') {
    const raw = (event.payload as { alert?: Partial<RiskAlertObject> } | undefined)?.alert;
    if (!raw || typeof raw.id !== 'string' || !UUID.test(raw.id)) return { kind: 'malformed', reason: 'alert.id is not a uuid' };
    const orgId = typeof raw.organizationId === 'string' && raw.organizationId !== '' ? raw.organizationId : event.orgId;
    return { kind: 'alert_resolved', alertId: raw.id.toLowerCase(), orgId };
  }
  return { kind: 'none' };
}

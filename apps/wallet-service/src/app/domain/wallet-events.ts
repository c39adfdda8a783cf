import type {
  EventPayloadOf,
  PortfolioWalletEventPayload,
  PortfolioWalletEventType,
  PortfolioWalletResources,
  WalletStatus,
} from '@service/contracts';
import type { NewEvent } from '@service/events';
import { formatUsd } from '@service/money';
import type { ApprovalChangeRecord } from './customer-approvals/changes.js';
import { depositView } from './deposit-view.js';
import { approvalView } from './deposit-address-view.js';
import type { Ledger } from './ledger.js';
import { rebalanceObject } from './rebalance-view.js';
import type { DepositAddressApprovalRecord, DepositRecord, RebalanceRecord, WithdrawalRecord } from './records.js';
import { type Strategy, strategyView } from './strategy.js';
import { legView, type StoredLeg, withdrawalView } from './withdrawal-view.js';

/**
 * The events a wallet's changes announce, in the webhook body shape `{event, observedAt, walletId,
 * <resource>}`: the use cases build them here and hand them to the repositories, which write
 * them to the outbox with the change they announce.
 */
export type WalletEvent = NewEvent<PortfolioWalletEventType>;

/** Whose wallet and when: the organization the event goes to, the wallet it is about, its `observedAt`. */
export interface EventScope {
  readonly orgId: string;
  readonly walletId: string;
  readonly observedAt: Date;
}

function walletEvent<T extends PortfolioWalletEventType>(scope: EventScope, type: T, resource: PortfolioWalletResources[T]): NewEvent<T> {
  const payload: PortfolioWalletEventPayload<T> = {
    event: type,
    observedAt: scope.observedAt.toISOString(),
    walletId: scope.walletId,
    ...resource,
  };
  // The same type as EventPayloadOf<T> for every T here; TypeScript cannot relate the two for an open T.
  return { type, orgId: scope.orgId, payload: payload as unknown as EventPayloadOf<T> };
}

/** `portfolio_wallet.status_changed`: the wallet is now in `status`. */
export function walletStatusChanged(wallet: { id: string; orgId: string }, status: WalletStatus, now: Date): WalletEvent {
  return walletEvent({ orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.status_changed', {
    wallet: { id: wallet.id, status },
  });
}

/** `portfolio_wallet.strategy.status_changed`: `strategy` is in force. */
export function strategyChanged(wallet: { id: string; orgId: string }, strategy: Strategy, now: Date): WalletEvent {
  return walletEvent({ orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.strategy.status_changed', {
    strategy: { status: 'active', allocations: strategyView(strategy) },
  });
}

/** `portfolio_wallet.deposit.status_changed` for the deposit as it now is. */
export function depositChanged(row: DepositRecord, observedAt: Date): WalletEvent {
  return walletEvent({ orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.deposit.status_changed', {
    deposit: depositView(row),
  });
}

/** `portfolio_wallet.rebalance.status_changed` for the rebalance as it now is. */
export function rebalanceChanged(row: RebalanceRecord, observedAt: Date): WalletEvent {
  return walletEvent({ orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.rebalance.status_changed', {
    rebalance: rebalanceObject(row),
  });
}

/** `portfolio_wallet.withdrawal.status_changed` for the withdrawal as it now is. */
export function withdrawalChanged(row: WithdrawalRecord, observedAt: Date): WalletEvent {
  return walletEvent({ orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.withdrawal.status_changed', {
    withdrawal: withdrawalView(row),
  });
}

/** `portfolio_wallet.withdrawal.payout.status_changed` for one leg of the withdrawal as it now is. */
export function payoutLegChanged(row: WithdrawalRecord, leg: StoredLeg, observedAt: Date): WalletEvent {
  return walletEvent({ orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.withdrawal.payout.status_changed', {
    withdrawalId: row.id,
    turnkeyActivityId: leg.turnkeyActivityId ?? null,
    payoutLeg: legView(leg),
  });
}

/** `portfolio_wallet.approval.status_changed` for a deposit address setup as it now is. */
export function approvalChanged(row: DepositAddressApprovalRecord, observedAt: Date): WalletEvent {
  return walletEvent({ orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.approval.status_changed', {
    approval: approvalView(row),
  });
}

/**
 * `portfolio_wallet.approval.status_changed` for a change to the organization's approvers, policy
 * or address book as it now is: no wallet (`walletId` and `chain` null), `kind` the change's.
 */
export function approvalChangeChanged(row: ApprovalChangeRecord, observedAt: Date): WalletEvent {
  const type = 'portfolio_wallet.approval.status_changed';
  const payload: PortfolioWalletEventPayload<typeof type> = {
    event: type,
    observedAt: observedAt.toISOString(),
    walletId: null,
    approval: {
      id: row.id,
      kind: row.kind,
      chain: null,
      status: row.status,
      turnkeyActivityId: row.activityId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    },
  };
  return { type, orgId: row.orgId, payload };
}

/** `portfolio_wallet.position.updated` for each position the ledger changed since it was last saved, in the order they changed. */
export function positionsUpdated(ledger: Ledger, scope: { orgId: string; observedAt: Date }): WalletEvent[] {
  return ledger.changed().map((row) =>
    walletEvent({ ...scope, walletId: ledger.walletId }, 'portfolio_wallet.position.updated', {
      position: { id: row.positionId, kind: row.kind, amountUsd: formatUsd(row.amount) },
    }),
  );
}

/** `portfolio_wallet.balance.updated` with the wallet's totals as the ledger now holds them. */
export function balanceUpdated(ledger: Ledger, scope: { orgId: string; observedAt: Date }): WalletEvent {
  return walletEvent({ ...scope, walletId: ledger.walletId }, 'portfolio_wallet.balance.updated', { balance: ledger.balance() });
}

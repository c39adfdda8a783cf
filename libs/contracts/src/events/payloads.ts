import type { GTokenEventType, PortfolioWalletEventType } from './types.js';

/** Timestamps on the wire: ISO 8601 UTC with milliseconds. USD: strings with six decimals. */
export type Timestamp = string;
export type UsdAmount = string;

export interface DepositObject {
  id: string;
  amount: UsdAmount;
  token: string;
  chain: string;
  fromAddress: string | null;
  txHash: string | null;
  status: string;
  createdAt: Timestamp;
  completedAt: Timestamp | null;
}

export interface PositionRef {
  kind: 'yield_source' | 'external_payout' | 'cash';
  id: string;
  label: string;
}

export interface PayoutStep {
  label: string;
  status: string;
  txHash: string | null;
  txStatus: string | null;
}

export interface PayoutLeg {
  /** Stable id of the leg (uuid), for the payout routes. */
  id: string;
  status: string;
  amountUsd: UsdAmount;
  from: PositionRef;
  to: PositionRef;
  startedAt: Timestamp;
  completedAt: Timestamp | null;
  stepsCompleted: number;
  stepsTotal: number;
  steps: PayoutStep[];
  /**
   * The customer-approval activity while the leg is `pending_customer_approval`; null in every
   * other status (always present on the wire; optional only for legs as the service stores them).
   */
  turnkeyActivityId?: string | null;
  approvalRequestedAt?: Timestamp | null;
  approvalValidBefore?: Timestamp | null;
}

export interface WithdrawalObject {
  id: string;
  amountRequestedUsd: UsdAmount;
  amountPaidUsd: UsdAmount | null;
  feeUsd: UsdAmount;
  destinationChain: string;
  destinationAddress: string;
  destinationToken: string;
  status: string;
  legsCompleted: number;
  legsTotal: number;
  payoutLegs: PayoutLeg[];
  failureReason: string | null;
  createdAt: Timestamp;
  completedAt: Timestamp | null;
}

export interface AllocationInstruction {
  from: string;
  to: string;
  amountUsd: UsdAmount;
}

export interface RebalanceObject {
  id: string;
  requestId: string;
  status: 'created' | 'processing' | 'completed' | 'failed' | 'cancelled';
  allocations: AllocationInstruction[];
  createdAt: Timestamp;
  completedAt: Timestamp | null;
}

/** The resource each portfolio wallet event carries beside `event`, `observedAt` and `walletId`. */
export interface PortfolioWalletResources {
  'portfolio_wallet.status_changed': { wallet: { id: string; status: string } };
  'portfolio_wallet.deposit.status_changed': { deposit: DepositObject };
  'portfolio_wallet.withdrawal.status_changed': { withdrawal: WithdrawalObject };
  /** `turnkeyActivityId`: the leg's latest customer-approval activity (kept after the vote), null if it never needed one. */
  'portfolio_wallet.withdrawal.payout.status_changed': { withdrawalId: string; turnkeyActivityId: string | null; payoutLeg: PayoutLeg };
  /**
   * A deposit-address setup (`kind: deposit_address`, its wallet and chain) or a change to the
   * organization's approvers, policy or address book (`kind` the change's, e.g. `approver.created`;
   * `walletId` and `chain` null) as it now is. `turnkeyActivityId`: the approvers' activity of its
   * latest attempt (null for a setup made before approvals).
   */
  'portfolio_wallet.approval.status_changed': {
    approval: {
      id: string;
      kind: string;
      chain: string | null;
      status: string;
      turnkeyActivityId: string | null;
      createdAt: Timestamp;
      updatedAt: Timestamp;
    };
  };
  'portfolio_wallet.strategy.status_changed': {
    strategy: { status: string; allocations: Record<string, { yieldSourceId: string; pct: number }[]> };
  };
  'portfolio_wallet.rebalance.status_changed': { rebalance: RebalanceObject };
  'portfolio_wallet.risk.alert.triggered': { alert: { id: string; kind: string; severity: string; triggeredAt: Timestamp } };
  'portfolio_wallet.risk.alert.resolved': { alert: { id: string; kind: string; severity: string; resolvedAt: Timestamp } };
  'portfolio_wallet.risk.action.status_changed': { action: { id: string; kind: string; status: string } };
  'portfolio_wallet.risk.unwind.completed': { unwind: { id: string; amountUsd: UsdAmount; completedAt: Timestamp } };
  'portfolio_wallet.balance.updated': { balance: { totalUsd: UsdAmount; cashUsd: UsdAmount; investedUsd: UsdAmount } };
  'portfolio_wallet.position.updated': { position: { id: string; kind: string; amountUsd: UsdAmount } };
}

/** Body delivered to `/v2/webhooks` and `/v2/webhook-endpoints` receivers. */
export type PortfolioWalletEventPayload<T extends PortfolioWalletEventType = PortfolioWalletEventType> = {
  event: T;
  observedAt: Timestamp;
  /** The wallet the event is about; null only on `approval.status_changed` of an organization-level change. */
  walletId: T extends 'portfolio_wallet.approval.status_changed' ? string | null : string;
} & PortfolioWalletResources[T];

export interface GTokenEventData {
  'gvault.allowlist.updated': {
    gVaultId: string;
    chain: string;
    address: string;
    allowed: boolean;
    blockNumber: string;
    txHash: string;
  };
}

/** Body delivered to gtoken receivers; the business status lives in `data`. */
export interface GTokenEventPayload<T extends GTokenEventType = GTokenEventType> {
  id: string;
  type: T;
  createdAt: Timestamp;
  data: GTokenEventData[T];
}

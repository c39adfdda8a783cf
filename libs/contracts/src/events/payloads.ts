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

/** A risk alert (risk-service), the `RiskAlertDto` of the contracts. */
export interface RiskAlertObject {
  id: string;
  organizationId: string;
  portfolioWalletId: string;
  riskRuleId: string;
  yieldSourceId: string;
  metricsObservationId: string;
  metric: string;
  ruleKind: string;
  severity: string;
  status: 'ongoing' | 'resolved';
  thresholdValue: number;
  observedValue: number;
  baselineValue: number | null;
  observedChangeBps: number | null;
  windowSeconds: number | null;
  explanation: Record<string, unknown>;
  triggeredAt: Timestamp;
  resolvedAt: Timestamp | null;
  resolutionSource: string | null;
  resolutionNote: string | null;
}

/** A risk action (risk-service), the `RiskActionDto` of the contracts. */
export interface RiskActionObject {
  id: string;
  organizationId: string;
  portfolioWalletId: string;
  riskRuleId: string;
  riskAlertId: string;
  yieldSourceId: string;
  action: string;
  outcome: string;
  status: string;
  approvalRequired: boolean;
  rebalanceId: string | null;
  executionError: Record<string, unknown> | null;
  explanation: Record<string, unknown>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  resolvedAt: Timestamp | null;
  executedAt: Timestamp | null;
}

/** An exit-position action's rebalance, once completed. */
export interface RiskUnwindObject {
  actionId: string;
  rebalanceId: string;
  yieldSourceId: string;
  amountUsd: UsdAmount;
  completedAt: Timestamp;
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
  /** The alert as `GET /v2/wallets/risk/alerts` returns it (`status` `ongoing`). */
  'portfolio_wallet.risk.alert.triggered': { alert: RiskAlertObject };
  /** The alert as `GET /v2/wallets/risk/alerts` returns it (`status` `resolved`). */
  'portfolio_wallet.risk.alert.resolved': { alert: RiskAlertObject };
  /** The action as `GET /v2/wallets/risk/actions` returns it, in its new status. */
  'portfolio_wallet.risk.action.status_changed': { action: RiskActionObject };
  'portfolio_wallet.risk.unwind.completed': { unwind: RiskUnwindObject };
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

/** The figures of one metric observation; a metric the reading has no figure for is null. */
export interface ObservedMetrics {
  apy_bps: number | null;
  tvl_usd: number | null;
  available_withdrawal_liquidity_usd: number | null;
}

/** Payloads of the internal events (`INTERNAL_EVENTS`): between services, never delivered to a receiver. */
export interface InternalEventPayloads {
  /**
   * An observation risk-service recorded: a provider's reading (`orgId` null, seen by every
   * organization; the envelope's `orgId` is `ALL_ORGANIZATIONS`) or a sandbox injection (`orgId`
   * the organization's, holding for it until its next injection or `expiresAt`).
   */
  'risk.metrics.observed': {
    observationId: string;
    yieldSourceId: string;
    orgId: string | null;
    metrics: ObservedMetrics;
    recordedAt: Timestamp;
    expiresAt: Timestamp | null;
  };
}

import {
  ALL_ORGANIZATIONS,
  type EventPayloadOf,
  type RiskActionDto,
  type RiskActionKind,
  type RiskActionStatus,
  type RiskAlertDto,
  type RiskComparator,
  type RiskMetric,
  type RiskMetricsObservationDto,
  type RiskRuleDto,
  type RiskRuleKind,
  type RiskRuleStatus,
  type RiskSeverity,
} from '@service/contracts';
import type { MetricFigures } from './rules.js';
import { spellingOfStored } from './spelling.js';

/** The rows as stored (the Prisma models satisfy these). */
export interface RuleRow {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string;
  readonly yieldSourceId: string;
  readonly name: string | null;
  readonly metric: string;
  readonly ruleKind: string;
  readonly comparator: string;
  readonly thresholdValue: number;
  readonly windowSeconds: number | null;
  readonly severity: string;
  readonly action: string;
  readonly status: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface AlertRow {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string;
  readonly ruleId: string;
  readonly yieldSourceId: string;
  readonly observationId: string;
  readonly metric: string;
  readonly ruleKind: string;
  readonly severity: string;
  readonly status: string;
  readonly thresholdValue: number;
  readonly observedValue: number;
  readonly baselineValue: number | null;
  readonly observedChangeBps: number | null;
  readonly windowSeconds: number | null;
  readonly explanation: unknown;
  readonly triggeredAt: Date;
  readonly resolvedAt: Date | null;
  readonly resolutionSource: string | null;
  readonly resolutionNote: string | null;
}

export interface ActionRow {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string;
  readonly ruleId: string;
  readonly alertId: string;
  readonly yieldSourceId: string;
  readonly action: string;
  readonly status: string;
  readonly approvalRequired: boolean;
  readonly rebalanceId: string | null;
  readonly executionError: unknown;
  readonly explanation: unknown;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly resolvedAt: Date | null;
  readonly executedAt: Date | null;
}

export interface ObservationRow {
  readonly id: string;
  readonly yieldSourceId: string;
  readonly orgId: string | null;
  readonly apyBps: number | null;
  readonly tvlUsd: number | null;
  readonly availableWithdrawalLiquidityUsd: number | null;
  readonly protocol: string;
  readonly source: string;
  readonly recordedAt: Date;
  readonly expiresAt: Date | null;
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());
const objectOf = (value: unknown) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});

export function figuresOf(row: ObservationRow): MetricFigures {
  return { apy_bps: row.apyBps, tvl_usd: row.tvlUsd, available_withdrawal_liquidity_usd: row.availableWithdrawalLiquidityUsd };
}

export function toRuleDto(row: RuleRow): RiskRuleDto {
  const spelling = spellingOfStored(row.action);
  return {
    id: row.id,
    organizationId: row.orgId,
    portfolioWalletId: row.walletId,
    yieldSourceId: row.yieldSourceId,
    name: row.name,
    metric: row.metric as RiskMetric,
    ruleKind: row.ruleKind as RiskRuleKind,
    comparator: row.comparator as RiskComparator,
    thresholdValue: row.thresholdValue,
    windowSeconds: row.windowSeconds,
    severity: row.severity as RiskSeverity,
    action: spelling.action,
    outcome: spelling.outcome,
    approvalMode: spelling.approvalMode,
    status: row.status as RiskRuleStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toAlertDto(row: AlertRow): RiskAlertDto {
  return {
    id: row.id,
    organizationId: row.orgId,
    portfolioWalletId: row.walletId,
    riskRuleId: row.ruleId,
    yieldSourceId: row.yieldSourceId,
    metricsObservationId: row.observationId,
    metric: row.metric as RiskMetric,
    ruleKind: row.ruleKind as RiskRuleKind,
    severity: row.severity as RiskSeverity,
    status: row.status as RiskAlertDto['status'],
    thresholdValue: row.thresholdValue,
    observedValue: row.observedValue,
    baselineValue: row.baselineValue,
    observedChangeBps: row.observedChangeBps,
    windowSeconds: row.windowSeconds,
    explanation: objectOf(row.explanation),
    triggeredAt: row.triggeredAt.toISOString(),
    resolvedAt: iso(row.resolvedAt),
    resolutionSource: row.resolutionSource,
    resolutionNote: row.resolutionNote,
  };
}

export function toActionDto(row: ActionRow): RiskActionDto {
  const spelling = spellingOfStored(row.action);
  return {
    id: row.id,
    organizationId: row.orgId,
    portfolioWalletId: row.walletId,
    riskRuleId: row.ruleId,
    riskAlertId: row.alertId,
    yieldSourceId: row.yieldSourceId,
    action: spelling.action as RiskActionKind,
    outcome: spelling.outcome,
    status: row.status as RiskActionStatus,
    approvalRequired: row.approvalRequired,
    rebalanceId: row.rebalanceId,
    executionError: row.executionError === null ? null : objectOf(row.executionError),
    explanation: objectOf(row.explanation),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resolvedAt: iso(row.resolvedAt),
    executedAt: iso(row.executedAt),
  };
}

/** An observation as the metrics list and the injection answer it, with `metrics` limited to those asked. */
export function toObservationDto(
  row: ObservationRow,
  portfolioWalletId: string | null,
  metrics?: readonly RiskMetric[],
): RiskMetricsObservationDto {
  const figures = figuresOf(row);
  const shown = metrics ?? (Object.keys(figures) as RiskMetric[]);
  return {
    id: row.id,
    portfolioWalletId,
    yieldSourceId: row.yieldSourceId,
    metrics: Object.fromEntries(shown.map((metric) => [metric, figures[metric]])) as RiskMetricsObservationDto['metrics'],
    protocol: row.protocol,
    source: row.source,
    recordedAt: row.recordedAt.toISOString(),
    expiresAt: iso(row.expiresAt),
  };
}

/**
 * The `risk.metrics.observed` event of an observation (internal, no webhook delivers it): its
 * envelope's `orgId` is the injecting organization, or `ALL_ORGANIZATIONS` for a provider's
 * reading (the payload's `orgId` is then null).
 */
export function observedEventOf(row: ObservationRow): {
  type: 'risk.metrics.observed';
  orgId: string;
  payload: EventPayloadOf<'risk.metrics.observed'>;
} {
  return {
    type: 'risk.metrics.observed',
    orgId: row.orgId ?? ALL_ORGANIZATIONS,
    payload: {
      observationId: row.id,
      yieldSourceId: row.yieldSourceId,
      orgId: row.orgId,
      metrics: figuresOf(row),
      recordedAt: row.recordedAt.toISOString(),
      expiresAt: iso(row.expiresAt),
    },
  };
}

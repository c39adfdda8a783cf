import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_TIMESTAMP_LENGTH, PageQueryDto } from './page.dto.js';

/**
 * The risk engine (issue 39): rules on a yield source's metrics, the alerts they open and the
 * actions those alerts call for, and the metric observations they are evaluated on. Field names,
 * enums and limits are the real API's (`/v2/wallets/risk/*`, `/v2/sandbox/risk/metrics`).
 */
export const RISK_METRICS = ['apy_bps', 'tvl_usd', 'available_withdrawal_liquidity_usd'] as const;
export type RiskMetric = (typeof RISK_METRICS)[number];
export const RISK_RULE_KINDS = ['absolute', 'relative_change_bps'] as const;
export type RiskRuleKind = (typeof RISK_RULE_KINDS)[number];
export const RISK_COMPARATORS = ['lt', 'lte', 'gt', 'gte'] as const;
export type RiskComparator = (typeof RISK_COMPARATORS)[number];
export const RISK_SEVERITIES = ['warning', 'critical'] as const;
export type RiskSeverity = (typeof RISK_SEVERITIES)[number];
export const RISK_RULE_STATUSES = ['active', 'paused'] as const;
export type RiskRuleStatus = (typeof RISK_RULE_STATUSES)[number];
/** What happens on breach, as the API reference spells it. */
export const RISK_ACTIONS = ['alert_only', 'block_rebalance_buy', 'request_rebalance_out', 'auto_rebalance_out'] as const;
export type RiskActionKind = (typeof RISK_ACTIONS)[number];
/** What happens on breach, as the guide spells it (with {@link RISK_APPROVAL_MODES} for non-alert outcomes). */
export const RISK_OUTCOMES = ['alert', 'prevent_additional_allocation', 'exit_position'] as const;
export type RiskOutcome = (typeof RISK_OUTCOMES)[number];
export const RISK_APPROVAL_MODES = ['automatic', 'approval_required'] as const;
export type RiskApprovalMode = (typeof RISK_APPROVAL_MODES)[number];
export const RISK_ALERT_STATUSES = ['ongoing', 'resolved'] as const;
export type RiskAlertStatus = (typeof RISK_ALERT_STATUSES)[number];
export const RISK_ACTION_STATUSES = ['pending_approval', 'pending_auto_execution', 'executing', 'executed', 'rejected', 'failed'] as const;
export type RiskActionStatus = (typeof RISK_ACTION_STATUSES)[number];
export const RISK_ACTION_DECISIONS = ['approved', 'rejected'] as const;
export type RiskActionDecision = (typeof RISK_ACTION_DECISIONS)[number];

/** Limits of the lists, the real API's. */
export const RISK_RULES_MAX_LIMIT = 100;
export const RISK_ALERTS_MAX_LIMIT = 500;
export const RISK_ACTIONS_MAX_LIMIT = 500;
export const RISK_LIST_DEFAULT_LIMIT = 100;
export const RISK_METRICS_MAX_PER_SOURCE = 100;
/** Wallets or sources one list request may name. */
export const MAX_RISK_FILTER_IDS = 100;
/** Longest velocity window: a year. */
export const MAX_RISK_WINDOW_SECONDS = 31_536_000;
/** How long a sandbox injection holds by default, and at most (seconds). */
export const RISK_INJECTION_DEFAULT_SECONDS = 600;
export const RISK_INJECTION_MAX_SECONDS = 86_400;
/** Largest metric value or threshold accepted (USD figures up to a hundred trillion). */
export const MAX_RISK_VALUE = 1e14;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A catalogue yield-source id (`service-jaaa-usdc-vault`) or a UUID. */
const SOURCE_ID = /^[a-z0-9][a-z0-9-]{0,99}$/i;
const SOURCE_ID_MESSAGE = 'yieldSourceId must be a yield-source id';

/** A repeatable or comma-separated query parameter as a list of trimmed, non-empty values. */
export const asCommaList = ({ value }: { value: unknown }): unknown => {
  if (value === undefined) return value;
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  return values
    .flatMap((each) => (typeof each === 'string' ? each.split(',').map((part) => part.trim()) : [each]))
    .filter((each) => each !== '');
};

const finite = { allowNaN: false, allowInfinity: false };
const asBoolean = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);
const asInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;

class RiskListLimitQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from a previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({
    description: 'Optional repeatable or comma-separated portfolio wallet ids.',
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: MAX_RISK_FILTER_IDS,
  })
  @IsOptional()
  @Transform(asCommaList)
  @ArrayMaxSize(MAX_RISK_FILTER_IDS)
  @Matches(UUID, { each: true, message: 'portfolioWalletIds must be UUIDs' })
  portfolioWalletIds?: string[];
}

/** `GET /v2/wallets/risk/rules`. */
export class RiskRuleListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: MAX_RISK_FILTER_IDS })
  @IsOptional()
  @Transform(asCommaList)
  @ArrayMaxSize(MAX_RISK_FILTER_IDS)
  @Matches(UUID, { each: true, message: 'portfolioWalletIds must be UUIDs' })
  portfolioWalletIds?: string[];

  @ApiPropertyOptional({ enum: RISK_RULE_STATUSES })
  @IsOptional()
  @IsIn(RISK_RULE_STATUSES)
  status?: RiskRuleStatus;
}

/** `GET /v2/wallets/risk/alerts`. */
export class RiskAlertListQueryDto extends RiskListLimitQueryDto {
  @ApiPropertyOptional({ enum: RISK_ALERT_STATUSES })
  @IsOptional()
  @IsIn(RISK_ALERT_STATUSES)
  status?: RiskAlertStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: RISK_ALERTS_MAX_LIMIT, default: RISK_LIST_DEFAULT_LIMIT, type: 'integer' })
  @IsOptional()
  @Transform(asInteger)
  @IsInt()
  @Min(1)
  @Max(RISK_ALERTS_MAX_LIMIT)
  limit?: number;
}

/** `GET /v2/wallets/risk/actions`: `action` (the reference's) or `outcome` (the guide's). */
export class RiskActionListQueryDto extends RiskListLimitQueryDto {
  @ApiPropertyOptional({ enum: RISK_ACTION_STATUSES })
  @IsOptional()
  @IsIn(RISK_ACTION_STATUSES)
  status?: RiskActionStatus;

  @ApiPropertyOptional({ enum: RISK_ACTIONS })
  @IsOptional()
  @IsIn(RISK_ACTIONS)
  action?: RiskActionKind;

  @ApiPropertyOptional({ enum: RISK_OUTCOMES })
  @IsOptional()
  @IsIn(RISK_OUTCOMES)
  outcome?: RiskOutcome;

  @ApiPropertyOptional({ minimum: 1, maximum: RISK_ACTIONS_MAX_LIMIT, default: RISK_LIST_DEFAULT_LIMIT, type: 'integer' })
  @IsOptional()
  @Transform(asInteger)
  @IsInt()
  @Min(1)
  @Max(RISK_ACTIONS_MAX_LIMIT)
  limit?: number;
}

/** `POST /v2/wallets/risk/rules`. */
export class CreateRiskRuleDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  portfolioWalletId!: string;

  @ApiProperty({ example: 'service-jaaa-usdc-vault', description: 'A catalogue yield-source id.' })
  @IsString()
  @MaxLength(100)
  @Matches(SOURCE_ID, { message: SOURCE_ID_MESSAGE })
  yieldSourceId!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiProperty({ enum: RISK_METRICS })
  @IsIn(RISK_METRICS)
  metric!: RiskMetric;

  @ApiProperty({ enum: RISK_RULE_KINDS })
  @IsIn(RISK_RULE_KINDS)
  ruleKind!: RiskRuleKind;

  @ApiProperty({ enum: RISK_COMPARATORS })
  @IsIn(RISK_COMPARATORS)
  comparator!: RiskComparator;

  @ApiProperty({ description: 'absolute: the value (>= 0); relative_change_bps: the signed change in bps.' })
  @IsNumber(finite)
  @Min(-MAX_RISK_VALUE)
  @Max(MAX_RISK_VALUE)
  thresholdValue!: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RISK_WINDOW_SECONDS,
    description: 'Required for relative_change_bps, refused for absolute.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RISK_WINDOW_SECONDS)
  windowSeconds?: number | null;

  @ApiPropertyOptional({ enum: RISK_SEVERITIES, default: 'warning' })
  @IsOptional()
  @IsIn(RISK_SEVERITIES)
  severity?: RiskSeverity;

  @ApiPropertyOptional({
    enum: RISK_ACTIONS,
    default: 'alert_only',
    description: 'The reference spelling of the outcome; must agree with outcome/approvalMode when both are given.',
  })
  @IsOptional()
  @IsIn(RISK_ACTIONS)
  action?: RiskActionKind;

  @ApiPropertyOptional({ enum: RISK_OUTCOMES, default: 'alert', description: 'The guide spelling of the outcome.' })
  @IsOptional()
  @IsIn(RISK_OUTCOMES)
  outcome?: RiskOutcome;

  @ApiPropertyOptional({ enum: RISK_APPROVAL_MODES, description: 'Required for non-alert outcomes, refused for alert.' })
  @IsOptional()
  @IsIn(RISK_APPROVAL_MODES)
  approvalMode?: RiskApprovalMode;

  @ApiPropertyOptional({ enum: RISK_RULE_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(RISK_RULE_STATUSES)
  status?: RiskRuleStatus;
}

/** `PATCH /v2/wallets/risk/rules/{riskRuleId}`: the fields to change (a rule keeps its wallet and source). */
export class UpdateRiskRuleDto extends PartialType(OmitType(CreateRiskRuleDto, ['portfolioWalletId', 'yieldSourceId'] as const)) {}

/** `PATCH /v2/wallets/risk/actions/{riskActionId}`. */
export class UpdateRiskActionDto {
  @ApiProperty({ enum: RISK_ACTION_DECISIONS })
  @IsIn(RISK_ACTION_DECISIONS)
  status!: RiskActionDecision;
}

/** `GET /v2/wallets/risk/metrics`. */
export class RiskMetricsQueryDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: MAX_RISK_FILTER_IDS })
  @IsOptional()
  @Transform(asCommaList)
  @ArrayMaxSize(MAX_RISK_FILTER_IDS)
  @Matches(UUID, { each: true, message: 'portfolioWalletIds must be UUIDs' })
  portfolioWalletIds?: string[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'string' }, maxItems: MAX_RISK_FILTER_IDS })
  @IsOptional()
  @Transform(asCommaList)
  @ArrayMaxSize(MAX_RISK_FILTER_IDS)
  @MaxLength(100, { each: true })
  @Matches(SOURCE_ID, { each: true, message: 'yieldSourceIds must be yield-source ids' })
  yieldSourceIds?: string[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: [...RISK_METRICS] }, maxItems: RISK_METRICS.length })
  @IsOptional()
  @Transform(asCommaList)
  @ArrayMaxSize(RISK_METRICS.length)
  @IsIn(RISK_METRICS, { each: true })
  metrics?: RiskMetric[];

  @ApiPropertyOptional({ format: 'date-time', maxLength: MAX_TIMESTAMP_LENGTH })
  @IsOptional()
  @MaxLength(MAX_TIMESTAMP_LENGTH)
  @IsISO8601({ strict: true })
  startAt?: string;

  @ApiPropertyOptional({ format: 'date-time', maxLength: MAX_TIMESTAMP_LENGTH })
  @IsOptional()
  @MaxLength(MAX_TIMESTAMP_LENGTH)
  @IsISO8601({ strict: true })
  endAt?: string;

  @ApiPropertyOptional({ default: true, description: 'When true, the latest observation per yield source only.' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  latestOnly?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: RISK_METRICS_MAX_PER_SOURCE, default: RISK_METRICS_MAX_PER_SOURCE })
  @IsOptional()
  @Transform(asInteger)
  @IsInt()
  @Min(1)
  @Max(RISK_METRICS_MAX_PER_SOURCE)
  limitPerYieldSource?: number;
}

/** The metric figures of one observation; each may be absent from an injection. */
export class RiskMetricValuesDto {
  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(MAX_RISK_VALUE)
  apy_bps?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(MAX_RISK_VALUE)
  tvl_usd?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(MAX_RISK_VALUE)
  available_withdrawal_liquidity_usd?: number;
}

/** `POST /v2/sandbox/risk/metrics`. */
export class InjectRiskMetricsDto {
  @ApiProperty({ example: 'service-jaaa-usdc-vault' })
  @IsString()
  @MaxLength(100)
  @Matches(SOURCE_ID, { message: SOURCE_ID_MESSAGE })
  yieldSourceId!: string;

  @ApiProperty({ type: RiskMetricValuesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => RiskMetricValuesDto)
  metrics!: RiskMetricValuesDto;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: RISK_INJECTION_MAX_SECONDS, default: RISK_INJECTION_DEFAULT_SECONDS })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RISK_INJECTION_MAX_SECONDS)
  expiresInSeconds?: number;
}

// ---------------------------------------------------------------------------------------------
// Responses

export type RiskMetricValues = { [M in RiskMetric]: number | null };

export class RiskRuleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() organizationId!: string;
  @ApiProperty({ format: 'uuid' }) portfolioWalletId!: string;
  @ApiProperty() yieldSourceId!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: RISK_METRICS }) metric!: RiskMetric;
  @ApiProperty({ enum: RISK_RULE_KINDS }) ruleKind!: RiskRuleKind;
  @ApiProperty({ enum: RISK_COMPARATORS }) comparator!: RiskComparator;
  @ApiProperty() thresholdValue!: number;
  @ApiProperty({ type: 'integer', nullable: true }) windowSeconds!: number | null;
  @ApiProperty({ enum: RISK_SEVERITIES }) severity!: RiskSeverity;
  @ApiProperty({ enum: RISK_ACTIONS }) action!: RiskActionKind;
  @ApiProperty({ enum: RISK_OUTCOMES }) outcome!: RiskOutcome;
  @ApiProperty({ enum: RISK_APPROVAL_MODES, nullable: true }) approvalMode!: RiskApprovalMode | null;
  @ApiProperty({ enum: RISK_RULE_STATUSES }) status!: RiskRuleStatus;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class RiskRuleListDto {
  @ApiProperty({ type: [RiskRuleDto] }) data!: RiskRuleDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class DeletedRiskRuleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class RiskAlertDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() organizationId!: string;
  @ApiProperty({ format: 'uuid' }) portfolioWalletId!: string;
  @ApiProperty({ format: 'uuid' }) riskRuleId!: string;
  @ApiProperty() yieldSourceId!: string;
  @ApiProperty({ format: 'uuid' }) metricsObservationId!: string;
  @ApiProperty({ enum: RISK_METRICS }) metric!: RiskMetric;
  @ApiProperty({ enum: RISK_RULE_KINDS }) ruleKind!: RiskRuleKind;
  @ApiProperty({ enum: RISK_SEVERITIES }) severity!: RiskSeverity;
  @ApiProperty({ enum: RISK_ALERT_STATUSES }) status!: RiskAlertStatus;
  @ApiProperty() thresholdValue!: number;
  @ApiProperty() observedValue!: number;
  @ApiProperty({ type: Number, nullable: true }) baselineValue!: number | null;
  @ApiProperty({ type: Number, nullable: true }) observedChangeBps!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) windowSeconds!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) explanation!: Record<string, unknown>;
  @ApiProperty() triggeredAt!: string;
  @ApiProperty({ type: String, nullable: true }) resolvedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: '`auto` (the metric recovered) or `rule_deleted`' })
  resolutionSource!: string | null;
  @ApiProperty({ type: String, nullable: true }) resolutionNote!: string | null;
}

export class RiskAlertListDto {
  @ApiProperty({ type: [RiskAlertDto] }) data!: RiskAlertDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class RiskActionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() organizationId!: string;
  @ApiProperty({ format: 'uuid' }) portfolioWalletId!: string;
  @ApiProperty({ format: 'uuid' }) riskRuleId!: string;
  @ApiProperty({ format: 'uuid' }) riskAlertId!: string;
  @ApiProperty() yieldSourceId!: string;
  @ApiProperty({ enum: RISK_ACTIONS }) action!: RiskActionKind;
  @ApiProperty({ enum: RISK_OUTCOMES }) outcome!: RiskOutcome;
  @ApiProperty({ enum: RISK_ACTION_STATUSES }) status!: RiskActionStatus;
  @ApiProperty() approvalRequired!: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) rebalanceId!: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true }) executionError!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) explanation!: Record<string, unknown>;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty({ type: String, nullable: true }) resolvedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) executedAt!: string | null;
}

export class RiskActionListDto {
  @ApiProperty({ type: [RiskActionDto] }) data!: RiskActionDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class RiskMetricsObservationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) portfolioWalletId!: string | null;
  @ApiProperty() yieldSourceId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number', nullable: true } }) metrics!: RiskMetricValues;
  @ApiProperty() protocol!: string;
  @ApiProperty({ description: '`simulated`, `onchain` or `sandbox_injection`' }) source!: string;
  @ApiProperty() recordedAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'When a sandbox injection stops holding; null for provider readings' })
  expiresAt!: string | null;
}

export class RiskMetricsSeriesDto {
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) portfolioWalletId!: string | null;
  @ApiProperty() yieldSourceId!: string;
  @ApiProperty({ type: [RiskMetricsObservationDto] }) observations!: RiskMetricsObservationDto[];
}

export class RiskMetricsListDto {
  @ApiProperty({ type: [RiskMetricsSeriesDto] }) data!: RiskMetricsSeriesDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from './page.dto.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 in UTC: a date-time with `Z`, at most millisecond precision. */
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

export const ACCOUNTING_SCOPES = ['organization'] as const;
/** The only cost basis method the real API's reference names. */
export const COST_BASIS_METHODS = ['fifo'] as const;
/** `exact` when the ledger reproduces the positions; `unreconciled` (with a `reason`) otherwise. */
export const RECONCILIATION_STATUSES = ['exact', 'unreconciled'] as const;
/** The activity types the real API filters on. */
export const ACCOUNTING_ACTIVITY_TYPES = ['deposit', 'withdrawal'] as const;
/**
 * What an accounting activity item is: `deposit`, `withdrawal` (a payout leg delivered, or its
 * fee), `allocation` (a yield-source lot bought), `redemption` (proceeds from a yield source),
 * `transfer` (between two cash positions of the wallet), `yield_accrual` (accrued yield settled).
 */
export const ACCOUNTING_ITEM_TYPES = ['deposit', 'withdrawal', 'allocation', 'redemption', 'transfer', 'yield_accrual'] as const;
/** The ledger's own event types (`eventType`). */
export const ACCOUNTING_EVENT_TYPES = ['deposit', 'payout', 'fee', 'buy', 'redeem', 'transfer_in', 'transfer_out', 'accrual'] as const;

/** Exactly one of `walletId` and `scope=organization` (the gateway checks that one is there). */
export class AccountingScopeQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Wallet ID for a wallet-scoped report. Provide exactly one of walletId or scope=organization.',
  })
  @IsOptional()
  @Matches(UUID, { message: 'walletId must be a UUID' })
  walletId?: string;

  @ApiPropertyOptional({
    enum: ACCOUNTING_SCOPES,
    description: 'Use organization for an organization-wide report. Provide exactly one of walletId or scope=organization.',
  })
  @IsOptional()
  @IsIn(ACCOUNTING_SCOPES, { message: 'scope must be organization' })
  scope?: (typeof ACCOUNTING_SCOPES)[number];
}

export class PeriodSummaryQueryDto extends AccountingScopeQueryDto {
  @ApiProperty({ format: 'date-time', description: 'Inclusive ISO-8601 UTC period start.' })
  @Matches(UTC_TIMESTAMP, { message: 'start must be an ISO 8601 UTC date-time (ending in Z)' })
  start!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive ISO-8601 UTC period end; after start and not after now.' })
  @Matches(UTC_TIMESTAMP, { message: 'end must be an ISO 8601 UTC date-time (ending in Z)' })
  end!: string;

  @ApiPropertyOptional({
    enum: COST_BASIS_METHODS,
    default: 'fifo',
    description: 'Cost basis method of realized performance; fifo is the only one.',
  })
  @IsOptional()
  @IsIn(COST_BASIS_METHODS, { message: 'costBasisMethod must be fifo' })
  costBasisMethod?: (typeof COST_BASIS_METHODS)[number];
}

export class PeriodSummaryFiguresDto {
  @ApiProperty({ example: '10000.000000' }) startingValueUsd!: string;
  @ApiProperty({ example: '10482.310000' }) endingValueUsd!: string;
  @ApiProperty({ example: '250.000000' }) externalDepositsUsd!: string;
  @ApiProperty({ example: '0.000000' }) externalPayoutsUsd!: string;
  @ApiProperty({ example: '0.000000', description: 'Credits from the platform; always 0 here.' }) groundCreditsUsd!: string;
  @ApiProperty({ example: '1.120000' }) explicitFeesUsd!: string;
  @ApiProperty({ example: '41.250000' }) realizedPerformanceUsd!: string;
  @ApiProperty({ example: '192.180000' }) unrealizedPerformanceUsd!: string;
  @ApiProperty({ example: '233.430000' }) investmentPerformanceUsd!: string;
  @ApiProperty({ enum: RECONCILIATION_STATUSES }) reconciliationStatus!: string;
}

export class PeriodSourceDto {
  @ApiProperty({ example: 'syrup-usdc' }) yieldSourceId!: string;
  @ApiProperty({ example: 'Syrup USDC' }) yieldSourceLabel!: string;
  @ApiProperty({ example: '4000.000000' }) entryValueUsd!: string;
  @ApiProperty({ example: '4212.430000' }) exitValueUsd!: string;
  @ApiProperty({
    example: '212.430000',
    description: 'exitValueUsd - entryValueUsd - bought + redeemed in the period: the yield it earned.',
  })
  netPerformanceUsd!: string;
}

export class PeriodSummaryDto {
  @ApiProperty() periodStart!: string;
  @ApiProperty() periodEnd!: string;
  @ApiProperty({ enum: ['wallet', 'organization'] }) scope!: 'wallet' | 'organization';
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) portfolioWalletId!: string | null;
  @ApiProperty({ enum: COST_BASIS_METHODS }) costBasisMethod!: string;
  @ApiProperty({ enum: RECONCILIATION_STATUSES }) status!: string;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: PeriodSummaryFiguresDto }) summary!: PeriodSummaryFiguresDto;
  @ApiProperty({ type: [PeriodSourceDto] }) yieldSources!: PeriodSourceDto[];
}

export class AccountingActivityQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Wallet ID for a wallet-scoped feed. Provide exactly one of walletId or scope=organization.',
  })
  @IsOptional()
  @Matches(UUID, { message: 'walletId must be a UUID' })
  walletId?: string;

  @ApiPropertyOptional({ enum: ACCOUNTING_SCOPES })
  @IsOptional()
  @IsIn(ACCOUNTING_SCOPES, { message: 'scope must be organization' })
  scope?: (typeof ACCOUNTING_SCOPES)[number];

  @ApiProperty({ format: 'date-time', description: 'Inclusive ISO-8601 UTC lower bound for activity timestamps.' })
  @Matches(UTC_TIMESTAMP, { message: 'startAt must be an ISO 8601 UTC date-time (ending in Z)' })
  startAt!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive ISO-8601 UTC upper bound for activity timestamps.' })
  @Matches(UTC_TIMESTAMP, { message: 'endAt must be an ISO 8601 UTC date-time (ending in Z)' })
  endAt!: string;

  @ApiPropertyOptional({ enum: ACCOUNTING_ACTIVITY_TYPES })
  @IsOptional()
  @IsIn(ACCOUNTING_ACTIVITY_TYPES, { message: 'type must be deposit or withdrawal' })
  type?: (typeof ACCOUNTING_ACTIVITY_TYPES)[number];
}

export class WalletActivityQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ACCOUNTING_ACTIVITY_TYPES })
  @IsOptional()
  @IsIn(ACCOUNTING_ACTIVITY_TYPES, { message: 'type must be deposit or withdrawal' })
  type?: (typeof ACCOUNTING_ACTIVITY_TYPES)[number];
}

/** One deposit or withdrawal of a wallet, as the real API's wallet activity shows it. */
export class WalletActivityItemDto {
  @ApiProperty({ format: 'uuid', description: 'The accounting event id' }) id!: string;
  @ApiProperty({ enum: ACCOUNTING_ITEM_TYPES }) type!: string;
  @ApiProperty({ example: '100.000000' }) amountUsd!: string;
  @ApiProperty() timestamp!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'status, chain, token, txHash and the id of the deposit or withdrawal (depositId / withdrawalId) it belongs to',
  })
  detail!: Record<string, unknown>;
}

export class WalletActivityPageDto {
  @ApiProperty({ type: [WalletActivityItemDto] }) data!: WalletActivityItemDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

/** One accounting event, with the fields of both shapes the real API has published. */
export class AccountingActivityItemDto extends WalletActivityItemDto {
  @ApiProperty({ format: 'uuid' }) walletId!: string;
  @ApiProperty({ type: String, nullable: true }) walletLabel!: string | null;
  @ApiProperty({ format: 'uuid' }) accountingEventId!: string;
  @ApiProperty({ enum: ACCOUNTING_EVENT_TYPES }) eventType!: string;
  @ApiProperty({ description: 'The position: `cash:<chain>:<token>` or a yield source id' }) accountId!: string;
  @ApiProperty({ enum: ['cash', 'yield_source'] }) accountKind!: string;
  @ApiProperty({ type: String, nullable: true }) chain!: string | null;
  @ApiProperty({ type: String, nullable: true }) token!: string | null;
  @ApiProperty({ type: String, nullable: true }) yieldSourceId!: string | null;
  @ApiProperty({ description: "The amount in the token's smallest units (six decimals)", example: '100000000' }) nativeUnits!: string;
  @ApiProperty({ description: 'When the movement was valued (its time)' }) settlementValuedAt!: string;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ type: String, nullable: true }) txHash!: string | null;
}

export class AccountingActivityPageDto {
  @ApiProperty({ type: [AccountingActivityItemDto] }) data!: AccountingActivityItemDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

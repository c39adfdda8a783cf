import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUsdAmount } from '@service/money';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { asList, ListFilterQueryDto, MAX_FILTER_VALUES } from './page.dto.js';

/** Wallet chain keys per environment (architecture.md); Stellar only after enabling. */
export const WALLET_CHAINS = {
  sandbox: ['ethereum_sepolia', 'solana_devnet', 'tron_nile'],
  production: ['ethereum', 'solana', 'tron'],
} as const;
export type WalletChain = (typeof WALLET_CHAINS)[keyof typeof WALLET_CHAINS][number];
export const WALLET_TOKENS = ['usdc', 'usdt'] as const;
export type WalletToken = (typeof WALLET_TOKENS)[number];
/** Strategy groups: Ethereum USDT stays in `usdt`, TRON USDT has its own group (no bridging). */
export const ALLOCATION_GROUPS = ['usdc', 'usdt', 'usdt:tron'] as const;
export type AllocationGroup = (typeof ALLOCATION_GROUPS)[number];
export const YIELD_SOURCE_MODES = ['active', 'buy_only', 'sell_only', 'emergency_freeze'] as const;
export const WALLET_STATUSES = [
  'creating',
  'idle',
  'withdrawal_active',
  'rebalance_active',
  'withdrawal_and_rebalance_active',
  'failed',
] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];
export const REBALANCE_STATUSES = ['created', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const DEPOSIT_STATUSES = ['processing', 'completed', 'failed'] as const;
/** The pseudo-source of a strategy group that holds what the targets leave in cash. */
export const CASH_PSEUDO_SOURCE = 'cash';

// ---------- yield-source catalogue ----------

/** How processing times are counted: seconds of elapsed time, or banking days. */
export const PROCESSING_TIME_BASES = ['elapsed_seconds', 'banking_days'] as const;
export type ProcessingTimeBasis = (typeof PROCESSING_TIME_BASES)[number];

export class ProcessingPolicyDto {
  @ApiProperty({
    enum: PROCESSING_TIME_BASES,
    description: '`elapsed_seconds`: units are seconds; `banking_days`: units are banking days.',
  })
  processingTimeBasis!: ProcessingTimeBasis;

  @ApiProperty({ type: 'number', minimum: 0, description: 'Finite, at most `typicalMaxUnits`.' })
  typicalMinUnits!: number;

  @ApiProperty({ type: 'number', minimum: 0 })
  typicalMaxUnits!: number;
}

export class ProcessingPoliciesDto {
  @ApiProperty({ type: ProcessingPolicyDto })
  deposit!: ProcessingPolicyDto;

  @ApiProperty({ type: ProcessingPolicyDto })
  redeem!: ProcessingPolicyDto;
}

export class CurrentApyDto {
  @ApiProperty({ type: 'integer' })
  apyBps!: number;

  @ApiProperty({ example: '2026-11-21T10:00:00.000Z' })
  asOf!: string;

  @ApiProperty({ description: '`asOf` + 2 h; stop displaying the preview at this time.' })
  validUntil!: string;
}

export const YIELD_SOURCE_HOLDING_TYPES = ['rwa', 'treasury', 'lending', 'cash'] as const;

export class YieldSourceAllocationDto {
  @ApiProperty({ example: 'AAA CLO tranches' })
  label!: string;

  @ApiProperty({ enum: YIELD_SOURCE_HOLDING_TYPES, description: 'What kind of asset the source holds.' })
  type!: (typeof YIELD_SOURCE_HOLDING_TYPES)[number];

  @ApiProperty({ type: 'number', description: 'USD value of this holding.' })
  valueUsd!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 100, description: "Share of the source's holdings, in percent." })
  pct!: number;
}

export class WalletYieldSourceDto {
  @ApiProperty({ example: 'service-jaaa-usdc-vault' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: YIELD_SOURCE_MODES })
  mode!: (typeof YIELD_SOURCE_MODES)[number];

  @ApiProperty({ example: 'ethereum_sepolia' })
  chain!: string;

  @ApiProperty({ enum: WALLET_TOKENS })
  depositToken!: WalletToken;

  @ApiProperty({ enum: ALLOCATION_GROUPS })
  allocationGroup!: AllocationGroup;

  @ApiProperty()
  protocol!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Historical 30-day rate; null until enough history.' })
  apyBps!: number | null;

  @ApiProperty({ type: ProcessingPoliciesDto })
  processingPolicies!: ProcessingPoliciesDto;

  @ApiPropertyOptional({ type: CurrentApyDto, description: 'Lending-market sources only; omitted once expired.' })
  currentApy?: CurrentApyDto;

  @ApiProperty({ type: 'number', nullable: true, description: 'Total value locked in the source, USD; null when unknown.' })
  tvlUsd!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 100,
    description: 'Lending markets: share of the supplied assets lent out, in percent; null otherwise.',
  })
  utilizationPct!: number | null;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: [YieldSourceAllocationDto], description: 'What the source holds.' })
  allocations!: YieldSourceAllocationDto[];
}

export class WalletYieldSourceListDto {
  @ApiProperty({ type: [WalletYieldSourceDto] })
  data!: WalletYieldSourceDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

// ---------- wallets ----------

export class StrategyDto {
  @ApiProperty({
    description:
      'Per allocation group (`usdc`, `usdt`, `usdt:tron`), a list of `{yieldSourceId, pct}` with `pct` in steps of 0.1 summing to 100 ' +
      '(or `{yieldSourceId, targetWeightBps}` summing to 10000); stored exactly as basis points. `cash` may be listed to keep a share in cash. ' +
      'A rebalance leg below 5 USD is not executed: the amount stays cash and withdrawable.',
    example: { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] },
  })
  @IsObject()
  allocations!: Record<string, unknown>;
}

export class CreateWalletDto {
  @ApiProperty({ format: 'uuid', description: 'Idempotency key of the creation.' })
  @IsUUID()
  requestId!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  autoRebalance?: boolean;

  @ApiProperty({ type: StrategyDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => StrategyDto)
  strategy!: StrategyDto;
}

const LABEL_OR_NULL = 'label must be a string of at most 200 characters, or null';

export class UpdateWalletDto {
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 200,
    description: 'The only field this endpoint accepts; `null` or `""` clears the label.',
  })
  // `null` clears the label, so it is skipped here rather than read as omitted (`@IsOptional`).
  @ValidateIf((_dto: object, value: unknown) => value !== null)
  @IsString({ message: LABEL_OR_NULL })
  @MaxLength(200, { message: LABEL_OR_NULL })
  label!: string | null;
}

export class UpdateStrategyDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  requestId!: string;

  @ApiProperty({ description: 'Same form as `strategy.allocations` of POST /v2/wallets.' })
  @IsObject()
  allocations!: Record<string, unknown>;
}

export class StrategyEntryDto {
  @ApiProperty()
  yieldSourceId!: string;

  @ApiProperty({ type: 'number', multipleOf: 0.1, minimum: 0, maximum: 100 })
  pct!: number;
}

export class StrategyTargetDto {
  @ApiProperty({ description: 'A yield-source id, or `cash` for what the targets leave in cash.' })
  yieldSourceId!: string;

  @ApiProperty({ type: 'integer' })
  targetWeightBps!: number;
}

export class WalletStrategyDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/StrategyEntryDto' } } })
  allocations!: Record<string, StrategyEntryDto[]>;
}

export class WalletBalanceDto {
  @ApiProperty({ example: '100.000000' })
  totalUsd!: string;

  @ApiProperty()
  withdrawableUsd!: string;

  @ApiProperty()
  reservedUsd!: string;

  @ApiProperty()
  earnedUsd!: string;
}

export class WalletPositionDto {
  @ApiProperty({ example: 'cash:ethereum_sepolia:usdc' })
  id!: string;

  @ApiProperty({ enum: ['cash', 'yield_source'] })
  kind!: 'cash' | 'yield_source';

  @ApiProperty()
  label!: string;

  @ApiProperty()
  valueUsd!: string;

  @ApiProperty({ type: 'integer', description: "Share of the wallet's value in whole percent (rounded down)" })
  pct!: number;

  @ApiProperty({ type: String, nullable: true })
  yieldSourceId!: string | null;

  @ApiProperty({ enum: WALLET_TOKENS })
  token!: WalletToken;
}

export class WalletDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String, nullable: true })
  label!: string | null;

  @ApiProperty({ enum: WALLET_STATUSES })
  status!: WalletStatus;

  @ApiProperty({ type: String, nullable: true })
  failureReason!: string | null;

  @ApiProperty()
  autoRebalance!: boolean;

  @ApiProperty({ type: WalletStrategyDto })
  strategy!: WalletStrategyDto;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { ethereum_sepolia: '0x…' } })
  depositAddresses!: Record<string, string>;

  @ApiProperty({ type: WalletBalanceDto })
  balance!: WalletBalanceDto;

  @ApiProperty({ type: [WalletPositionDto] })
  positions!: WalletPositionDto[];

  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/StrategyTargetDto' } } })
  strategyAllocations!: Record<string, StrategyTargetDto[]>;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  updatedAt!: string;
}

export class WalletListDto {
  @ApiProperty({ type: [WalletDto] })
  data!: WalletDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

export class WalletYieldPositionDto {
  @ApiProperty()
  yieldSourceId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'integer', description: "The source's historical 30-day rate; 0 while it has no history yet." })
  apyBps!: number;

  @ApiProperty({ type: 'integer' })
  pct!: number;

  @ApiProperty()
  deployedValueUsd!: string;
}

export class WalletYieldDto {
  @ApiProperty({ format: 'uuid' })
  walletId!: string;

  @ApiProperty({ example: '100.000000', description: "The wallet's total now." })
  currentBalanceUsd!: string;

  @ApiProperty()
  earnedUsd!: string;

  @ApiProperty({ description: 'What a year at the current rates earns on what is deployed now.' })
  annualizedUsd!: string;

  @ApiProperty({ type: [WalletYieldPositionDto] })
  positions!: WalletYieldPositionDto[];
}

export class WalletListQueryDto extends ListFilterQueryDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...WALLET_STATUSES] },
    maxItems: MAX_FILTER_VALUES,
    description: 'Repeatable: only wallets in these statuses.',
  })
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(MAX_FILTER_VALUES, { message: `status must be given at most ${MAX_FILTER_VALUES} times` })
  @IsIn(WALLET_STATUSES, { each: true, message: `status must be one of ${WALLET_STATUSES.join(', ')}` })
  status?: WalletStatus[];
}

// ---------- deposits ----------

export class DepositListQueryDto extends ListFilterQueryDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...DEPOSIT_STATUSES] },
    maxItems: MAX_FILTER_VALUES,
    description: 'Repeatable: only deposits in these statuses.',
  })
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(MAX_FILTER_VALUES, { message: `status must be given at most ${MAX_FILTER_VALUES} times` })
  @IsIn(DEPOSIT_STATUSES, { each: true, message: `status must be one of ${DEPOSIT_STATUSES.join(', ')}` })
  status?: (typeof DEPOSIT_STATUSES)[number][];
}

/** Every chain a deposit can arrive on, in either environment. */
export const DEPOSIT_CHAINS = [...WALLET_CHAINS.sandbox, ...WALLET_CHAINS.production, 'stellar_testnet', 'stellar'] as const;

/** The longest transaction id of any chain: a Solana signature, 88 base58 characters. */
export const MAX_TX_HASH_LENGTH = 88;

/** A transaction id in the format of its chain's family: 0x-hex on EVM, hex on TRON and Stellar, base58 on Solana. */
export function isTxHashOf(chain: string | undefined, txHash: unknown): boolean {
  if (typeof txHash !== 'string') return false;
  const evm = /^0x[0-9a-fA-F]{64}$/.test(txHash);
  const hex = /^[0-9a-fA-F]{64}$/.test(txHash);
  const solana = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(txHash);
  if (chain === undefined) return evm || hex || solana;
  if (chain.startsWith('solana')) return solana;
  if (chain.startsWith('tron') || chain.startsWith('stellar')) return hex;
  return evm;
}

export class DepositLookupQueryDto {
  @ApiProperty({
    maxLength: MAX_TX_HASH_LENGTH,
    description: "The deposit's transaction id, in its chain's format (0x + 64 hex on EVM, 64 hex on TRON and Stellar, base58 on Solana).",
  })
  @IsString()
  @MaxLength(MAX_TX_HASH_LENGTH)
  @ValidateBy({
    name: 'txHashOfChain',
    validator: {
      validate: (value: unknown, args) => isTxHashOf((args?.object as DepositLookupQueryDto).chain, value),
      defaultMessage: () => "txHash is not a transaction id of the chain's format",
    },
  })
  txHash!: string;

  @ApiPropertyOptional({ enum: DEPOSIT_CHAINS, description: 'Restricts the lookup to this chain.' })
  @IsOptional()
  @IsIn(DEPOSIT_CHAINS, { message: `chain must be one of ${DEPOSIT_CHAINS.join(', ')}` })
  chain?: string;
}

export class SimulateDepositDto {
  @ApiProperty({ example: '100.000000' })
  @IsDefined()
  @IsUsdAmount()
  amountUsd!: string;

  @ApiPropertyOptional({ enum: WALLET_TOKENS })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  token?: string;

  @ApiPropertyOptional({ example: 'ethereum_sepolia', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  chain?: string;
}

export class DepositDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  amount!: string;

  @ApiProperty({ enum: WALLET_TOKENS })
  token!: string;

  @ApiProperty()
  chain!: string;

  @ApiProperty({ type: String, nullable: true })
  fromAddress!: string | null;

  @ApiProperty({ type: String, nullable: true })
  txHash!: string | null;

  @ApiProperty({ enum: DEPOSIT_STATUSES })
  status!: string;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true })
  completedAt!: string | null;
}

export class DepositListDto {
  @ApiProperty({ type: [DepositDto] })
  data!: DepositDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

// ---------- allocate ----------

export class AllocationInstructionDto {
  @ApiProperty({ example: 'cash:ethereum_sepolia:usdc' })
  @IsString()
  @MaxLength(200)
  from!: string;

  @ApiProperty({ example: 'service-jaaa-usdc-vault' })
  @IsString()
  @MaxLength(200)
  to!: string;

  @ApiProperty({ example: '10.000000' })
  @IsDefined()
  @IsUsdAmount()
  amountUsd!: string;
}

/** Instructions one allocate request may hold: far more than a wallet has positions to move between. */
export const MAX_ALLOCATION_INSTRUCTIONS = 100;

export class AllocateDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  requestId!: string;

  @ApiProperty({ type: [AllocationInstructionDto], minItems: 1, maxItems: MAX_ALLOCATION_INSTRUCTIONS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ALLOCATION_INSTRUCTIONS)
  @ValidateNested({ each: true })
  @Type(() => AllocationInstructionDto)
  allocations!: AllocationInstructionDto[];
}

export class AllocatePreviewDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Accepted and ignored: a preview changes nothing.' })
  @IsOptional()
  @IsUUID()
  requestId?: string;

  @ApiProperty({ type: [AllocationInstructionDto], minItems: 1, maxItems: MAX_ALLOCATION_INSTRUCTIONS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ALLOCATION_INSTRUCTIONS)
  @ValidateNested({ each: true })
  @Type(() => AllocationInstructionDto)
  allocations!: AllocationInstructionDto[];
}

export class AllocationResponseDto {
  @ApiProperty({ format: 'uuid' })
  rebalanceId!: string;

  @ApiProperty({ format: 'uuid' })
  requestId!: string;

  @ApiProperty({ enum: REBALANCE_STATUSES })
  status!: (typeof REBALANCE_STATUSES)[number];

  @ApiProperty()
  createdAt!: string;

  @ApiProperty({ type: [AllocationInstructionDto] })
  allocations!: AllocationInstructionDto[];
}

export class AllocatePreviewResponseDto {
  @ApiProperty({ type: [AllocationInstructionDto] })
  allocations!: AllocationInstructionDto[];

  @ApiProperty({ type: [WalletPositionDto] })
  before!: WalletPositionDto[];

  @ApiProperty({ type: [WalletPositionDto] })
  after!: WalletPositionDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsUsdAmount } from '@service/money';
import { ArrayMaxSize, IsDefined, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { asList, ListFilterQueryDto, MAX_FILTER_VALUES } from './page.dto.js';
import { PROCESSING_TIME_BASES, type ProcessingTimeBasis, WALLET_TOKENS } from './wallet.dto.js';

export const WITHDRAWAL_STATUSES = ['processing', 'completed', 'partially_completed', 'failed', 'cancelled'] as const;
export const PAYOUT_LEG_STATUSES = [
  'planning',
  'waiting_for_prior_approval',
  'pending_customer_approval',
  'pending_broadcast',
  'broadcasted',
  'processing',
  'completed',
  'failed',
  'skipped',
  'cancelled',
] as const;

const AMOUNT_DESCRIPTION = 'USD, a string with at most six decimals or a JSON number with at most six decimals.';

// ---------- withdrawals ----------

export class WithdrawalListQueryDto extends ListFilterQueryDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...WITHDRAWAL_STATUSES] },
    maxItems: MAX_FILTER_VALUES,
    description: 'Repeatable: only withdrawals in these statuses.',
  })
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(MAX_FILTER_VALUES, { message: `status must be given at most ${MAX_FILTER_VALUES} times` })
  @IsIn(WITHDRAWAL_STATUSES, { each: true, message: `status must be one of ${WITHDRAWAL_STATUSES.join(', ')}` })
  status?: (typeof WITHDRAWAL_STATUSES)[number][];
}

export class WithdrawalPreviewDto {
  @ApiProperty({ example: 'ethereum_sepolia' })
  @IsString()
  @MaxLength(64)
  destinationChain!: string;

  @ApiPropertyOptional({ enum: WALLET_TOKENS, default: 'usdc' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  token?: string;

  @ApiPropertyOptional({
    example: '25.000000',
    description: `${AMOUNT_DESCRIPTION} Omitted: the preview answers what can be withdrawn now.`,
    oneOf: [{ type: 'string' }, { type: 'number' }],
  })
  @IsOptional()
  @IsUsdAmount()
  amountUsd?: string | number;
}

export class ProcessingEstimateDto {
  @ApiProperty({ enum: PROCESSING_TIME_BASES })
  basis!: ProcessingTimeBasis;

  @ApiProperty({ example: 'PT1M', description: 'ISO 8601 duration (`PT21M`, `PT2H`, `P3D`).' })
  typicalMinDuration!: string;

  @ApiProperty({ example: 'PT10M', description: 'ISO 8601 duration (`PT21M`, `PT2H`, `P3D`).' })
  typicalMaxDuration!: string;
}

export class WithdrawalPreviewResponseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '25.000000',
    description: 'The amount asked about; null when `amountUsd` was omitted.',
  })
  amountRequestedUsd!: string | null;

  @ApiProperty({ description: 'The flat fee of a withdrawal, taken from the amount requested.' })
  feeUsd!: string;

  @ApiProperty({ description: 'The most the wallet can pay out to this chain and token now (its allocation group, free of reservations).' })
  withdrawableUsd!: string;

  @ApiProperty({ description: "The wallet's total after this withdrawal; today's total when no amount was asked about." })
  totalUsdAfterWithdrawal!: string;

  @ApiProperty({
    type: ProcessingEstimateDto,
    description: 'Typical duration: the slowest redemption among the positions drawn on (for the maximum when no amount was asked about).',
  })
  processingEstimate!: ProcessingEstimateDto;
}

export class CreateWithdrawalDto {
  @ApiProperty({ format: 'uuid', description: 'Idempotency key of the withdrawal.' })
  @IsUUID()
  requestId!: string;

  @ApiProperty({ example: 'ethereum_sepolia' })
  @IsString()
  @MaxLength(64)
  destinationChain!: string;

  @ApiPropertyOptional({ enum: WALLET_TOKENS, default: 'usdc' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  token?: string;

  @ApiProperty({ example: '25.000000', description: AMOUNT_DESCRIPTION, oneOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined()
  @IsUsdAmount()
  amountUsd!: string | number;

  @ApiProperty({ description: 'An address of the destination chain (EVM, Solana base58, TRON T-address, Stellar G-address).' })
  @IsString()
  @MaxLength(128)
  destinationAddress!: string;
}

/** The body of withdrawal and payout actions: an optional idempotency key. */
export class PayoutRequestDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Idempotency key: a replay answers what the first request answered.' })
  @IsOptional()
  @IsUUID()
  requestId?: string;
}

export class CancelWithdrawalDto extends PayoutRequestDto {}

/** The path of a payout leg: wallet, withdrawal and leg ids. */
export class PayoutPathDto {
  @IsUUID(undefined, { message: 'id must be a UUID' })
  id!: string;

  @IsUUID(undefined, { message: 'withdrawalId must be a UUID' })
  withdrawalId!: string;

  @IsUUID(undefined, { message: 'payoutId must be a UUID' })
  payoutId!: string;
}

export class PositionRefDto {
  @ApiProperty({ enum: ['cash', 'yield_source', 'external_payout'] })
  kind!: string;

  @ApiProperty()
  id!: string;

  @ApiProperty()
  label!: string;
}

export class PayoutStepDto {
  @ApiProperty()
  label!: string;

  @ApiProperty({
    enum: ['pending', 'pending_customer_approval', 'processing', 'completed', 'failed', 'skipped'],
    description: '`pending_customer_approval`: the external payout step while its leg waits for approvers.',
  })
  status!: string;

  @ApiProperty({ type: String, nullable: true })
  txHash!: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['submitted', 'confirmed', 'failed'] })
  txStatus!: string | null;
}

export class PayoutLegDto {
  @ApiProperty({ format: 'uuid', description: 'Stable id of the leg, for the payout routes.' })
  id!: string;

  @ApiProperty({
    enum: PAYOUT_LEG_STATUSES,
    description: '`skipped`: its withdrawal was cancelled; `cancelled`: this leg alone was cancelled; `failed`: see the retry route.',
  })
  status!: string;

  @ApiProperty()
  amountUsd!: string;

  @ApiProperty({ type: PositionRefDto })
  from!: PositionRefDto;

  @ApiProperty({ type: PositionRefDto })
  to!: PositionRefDto;

  @ApiProperty()
  startedAt!: string;

  @ApiProperty({ type: String, nullable: true })
  completedAt!: string | null;

  @ApiProperty({ type: 'integer' })
  stepsCompleted!: number;

  @ApiProperty({ type: 'integer' })
  stepsTotal!: number;

  @ApiProperty({ type: [PayoutStepDto] })
  steps!: PayoutStepDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description:
      'While `pending_customer_approval`: the pending activity approvers vote on (`POST /v2/turnkey/activities/{activityId}/vote`); null in every other status.',
  })
  // Optional for the type checker only (legs stored before approvals lack them); always sent, as null outside approval.
  turnkeyActivityId?: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'While `pending_customer_approval`: when approval was requested; else null.' })
  approvalRequestedAt?: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'While `pending_customer_approval`: the deadline; without quorum by then the leg fails and its money stays in the wallet. Else null.',
  })
  approvalValidBefore?: string | null;
}

export class WithdrawalDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  amountRequestedUsd!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Delivered minus the fee; null until paid.' })
  amountPaidUsd!: string | null;

  @ApiProperty()
  feeUsd!: string;

  @ApiProperty()
  destinationChain!: string;

  @ApiProperty()
  destinationAddress!: string;

  @ApiProperty({ enum: WALLET_TOKENS })
  destinationToken!: string;

  @ApiProperty({ enum: WITHDRAWAL_STATUSES })
  status!: string;

  @ApiProperty({ type: 'integer' })
  legsCompleted!: number;

  @ApiProperty({ type: 'integer' })
  legsTotal!: number;

  @ApiProperty({ type: [PayoutLegDto] })
  payoutLegs!: PayoutLegDto[];

  @ApiProperty({ type: String, nullable: true })
  failureReason!: string | null;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true })
  completedAt!: string | null;
}

export class WithdrawalListDto {
  @ApiProperty({ type: [WithdrawalDto] })
  data!: WithdrawalDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

// ---------- address book ----------

export class CreateAddressBookEntryDto {
  @ApiProperty()
  @IsString()
  @MaxLength(128)
  address!: string;

  @ApiProperty({ example: 'ethereum_sepolia' })
  @IsString()
  @MaxLength(64)
  chain!: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  label!: string;
}

export class AddressBookEntryCreatedDto {
  @ApiProperty({ format: 'uuid', description: 'Id of the new entry.' })
  entry!: string;
}

export class AddressBookEntryDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  address!: string;

  @ApiProperty()
  chain!: string;

  @ApiProperty()
  label!: string;

  @ApiProperty()
  createdAt!: string;
}

export class AddressBookEntryListDto {
  @ApiProperty({ type: [AddressBookEntryDto] })
  data!: AddressBookEntryDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

export class AddressBookEntryDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

// ---------- deposit addresses ----------

export class DepositAddressApprovalDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'deposit_address' })
  kind!: string;

  @ApiProperty({ example: 'stellar_testnet' })
  chain!: string;

  @ApiProperty({
    enum: ['pending', 'approved', 'rejected', 'failed'],
    description:
      '`pending` until the organization’s approvers vote (`rejected` on a reject, `failed` when the deadline passes; enable again to retry).',
  })
  status!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The pending activity the approvers vote on (`POST /v2/turnkey/activities/{activityId}/vote`).',
  })
  turnkeyActivityId!: string | null;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  updatedAt!: string;
}

export class DepositAddressSetupDto {
  @ApiProperty({ example: 'stellar_testnet' })
  chain!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The G-address once the setup is approved.' })
  address!: string | null;

  @ApiProperty({ type: DepositAddressApprovalDto })
  approval!: DepositAddressApprovalDto;
}

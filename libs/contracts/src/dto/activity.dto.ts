import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { asList, PageQueryDto } from './page.dto.js';
import { AllocationInstructionDto, DepositDto, REBALANCE_STATUSES } from './wallet.dto.js';

export const ACTIVITY_TYPES = ['deposit', 'withdrawal', 'rebalance'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
/**
 * Public activity statuses, in the order an item moves through them (the last four are final;
 * `partially_completed` is a withdrawal some of whose legs delivered).
 */
export const ACTIVITY_STATUSES = ['created', 'processing', 'completed', 'partially_completed', 'failed', 'cancelled'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
/** Wallets one feed request may name; more is a `validation_error`. */
export const MAX_ACTIVITY_WALLET_IDS = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WALLET_ID_LIST = `walletId must be a UUID, repeated at most ${MAX_ACTIVITY_WALLET_IDS} times`;
const STATUS_LIST = new RegExp(`^(all|(${ACTIVITY_STATUSES.join('|')})(,(${ACTIVITY_STATUSES.join('|')}))*)$`);
/** Every status named twice over: the pattern alone lets a list of repeats run on. */
const MAX_STATUS_LIST_LENGTH = 2 * ACTIVITY_STATUSES.join(',').length;

export class ActivityQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: `Restricts the feed to these wallets; repeat the parameter for several (at most ${MAX_ACTIVITY_WALLET_IDS}).`,
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: MAX_ACTIVITY_WALLET_IDS,
  })
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(MAX_ACTIVITY_WALLET_IDS, { message: WALLET_ID_LIST })
  @Matches(UUID, { each: true, message: WALLET_ID_LIST })
  // Always a list once the gateway has read it; activity-service also takes a single id.
  walletId?: string | string[];

  @ApiPropertyOptional({ enum: ACTIVITY_TYPES })
  @IsOptional()
  @IsIn(ACTIVITY_TYPES, { message: `type must be one of ${ACTIVITY_TYPES.join(', ')}` })
  type?: ActivityType;

  @ApiPropertyOptional({
    description: `Comma-separated public statuses (${ACTIVITY_STATUSES.join(', ')}) or \`all\`; every status when omitted.`,
    example: 'created,processing',
    maxLength: MAX_STATUS_LIST_LENGTH,
  })
  @IsOptional()
  @MaxLength(MAX_STATUS_LIST_LENGTH, { message: `status must be at most ${MAX_STATUS_LIST_LENGTH} characters` })
  @Matches(STATUS_LIST, { message: `status must be \`all\` or a comma-separated list of ${ACTIVITY_STATUSES.join(', ')}` })
  status?: string;
}

export class ActivityRebalanceDto {
  @ApiProperty({ format: 'uuid', description: 'The rebalanceId' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  requestId!: string;

  @ApiProperty({ enum: REBALANCE_STATUSES })
  status!: string;

  @ApiProperty({ type: [AllocationInstructionDto] })
  allocations!: AllocationInstructionDto[];

  @ApiProperty()
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true })
  completedAt!: string | null;
}

export class ActivityWithdrawalDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: '100.000000' })
  amountRequestedUsd!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null until paid' })
  amountPaidUsd!: string | null;

  @ApiProperty()
  feeUsd!: string;

  @ApiProperty()
  destinationChain!: string;

  @ApiProperty()
  destinationAddress!: string;

  @ApiProperty()
  destinationToken!: string;

  @ApiProperty()
  status!: string;

  @ApiProperty({ type: 'integer' })
  legsCompleted!: number;

  @ApiProperty({ type: 'integer' })
  legsTotal!: number;

  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Payout legs as the withdrawal resource defines them' })
  payoutLegs!: object[];

  @ApiProperty({ type: String, nullable: true })
  failureReason!: string | null;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null until done' })
  completedAt!: string | null;
}

export class ActivityItemDto {
  @ApiProperty({ format: 'uuid', description: "The nested deposit's or withdrawal's id; a rebalance's rebalanceId" })
  id!: string;

  @ApiProperty({ enum: ACTIVITY_TYPES })
  type!: ActivityType;

  @ApiProperty({ enum: ACTIVITY_STATUSES })
  status!: ActivityStatus;

  @ApiProperty({ example: '100.000000', description: 'For a rebalance, the sum of its allocations' })
  amountUsd!: string;

  @ApiProperty({ example: '2026-11-21T10:00:00.000Z', description: 'When the deposit, withdrawal or rebalance was created' })
  timestamp!: string;

  @ApiProperty({ format: 'uuid' })
  walletId!: string;

  @ApiPropertyOptional({ type: DepositDto, description: 'Present when type is deposit' })
  deposit?: DepositDto;

  @ApiPropertyOptional({ type: ActivityWithdrawalDto, description: 'Present when type is withdrawal' })
  withdrawal?: ActivityWithdrawalDto;

  @ApiPropertyOptional({ type: ActivityRebalanceDto, description: 'Present when type is rebalance' })
  rebalance?: ActivityRebalanceDto;
}

export class ActivityPageDto {
  @ApiProperty({ type: [ActivityItemDto] })
  data!: ActivityItemDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

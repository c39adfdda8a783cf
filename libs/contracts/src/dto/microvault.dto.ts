import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, Matches, Max, Min, ValidateNested } from 'class-validator';

export const MICROVAULT_TASK_KINDS = ['update_strategy', 'set_pause'] as const;
export type MicroVaultTaskKind = (typeof MICROVAULT_TASK_KINDS)[number];

export const MICROVAULT_TASK_STATUSES = ['submitted', 'broadcast', 'confirmed', 'failed'] as const;
export type MicroVaultTaskStatus = (typeof MICROVAULT_TASK_STATUSES)[number];

/** Vault operations that can be paused; each is one bit of the vault's `pauseFlags`. */
export const MICROVAULT_OPERATION_BITS = { subscriptions: 0, redemptions: 1, strategy_updates: 2 } as const;
export type MicroVaultOperation = keyof typeof MICROVAULT_OPERATION_BITS;
export const MICROVAULT_OPERATIONS = Object.keys(MICROVAULT_OPERATION_BITS) as MicroVaultOperation[];

export const TOTAL_BPS = 10_000;
export const MAX_STRATEGY_ALLOCATIONS = 32;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

export class MicroVaultAllocationDto {
  @ApiProperty({ pattern: '^0x[0-9a-fA-F]{64}$', example: `0x${'11'.repeat(32)}` })
  @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'sourceId must be 0x followed by 64 hex digits' })
  sourceId!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: TOTAL_BPS, example: 6000 })
  @IsInt({ message: 'targetBps must be an integer' })
  @Min(0)
  @Max(TOTAL_BPS)
  targetBps!: number;
}

/** PUT /v2/microvaults/vaults/{vaultId}/strategy */
export class MicroVaultStrategyDto {
  @ApiProperty({ type: [MicroVaultAllocationDto], maxItems: MAX_STRATEGY_ALLOCATIONS })
  @IsArray({ message: 'allocations must be an array' })
  @ArrayMaxSize(MAX_STRATEGY_ALLOCATIONS)
  @ValidateNested({ each: true })
  @Type(() => MicroVaultAllocationDto)
  allocations!: MicroVaultAllocationDto[];

  @ApiProperty({ type: 'integer', minimum: 0, maximum: TOTAL_BPS, description: 'Basis points held as idle USDC', example: 4000 })
  @IsInt({ message: 'idleTargetBps must be an integer' })
  @Min(0)
  @Max(TOTAL_BPS)
  idleTargetBps!: number;
}

/** PUT /v2/microvaults/vaults/{vaultId}/pause */
export class MicroVaultPauseDto {
  @ApiProperty({
    enum: MICROVAULT_OPERATIONS,
    description: 'Vault operation; pause bit: subscriptions 0, redemptions 1, strategy_updates 2',
  })
  @IsIn(MICROVAULT_OPERATIONS, { message: `operation must be one of ${MICROVAULT_OPERATIONS.join(', ')}` })
  operation!: MicroVaultOperation;

  @ApiProperty({ description: 'true pauses, false resumes' })
  @IsBoolean({ message: 'paused must be a boolean' })
  paused!: boolean;
}

export class MicroVaultTaskDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: MICROVAULT_TASK_KINDS })
  kind!: MicroVaultTaskKind;

  @ApiProperty({ enum: MICROVAULT_TASK_STATUSES, description: 'submitted -> broadcast -> confirmed, or failed' })
  status!: MicroVaultTaskStatus;

  @ApiProperty({ format: 'uuid' })
  vaultId!: string;

  @ApiProperty({ type: [String], description: 'Onchain transaction hashes' })
  txHashes!: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Revert reason or RPC error when failed' })
  error!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class MicroVaultTaskEnvelopeDto {
  @ApiProperty({ type: MicroVaultTaskDto })
  task!: MicroVaultTaskDto;
}

export class MicroVaultTaskPageDto {
  @ApiProperty({ type: [MicroVaultTaskDto] })
  data!: MicroVaultTaskDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

export class MicroVaultPauseStatusDto {
  @ApiProperty({ pattern: '^(0|[1-9][0-9]*)$', description: 'pauseFlags read from the chain, unsigned base-10', example: '1' })
  flags!: string;
}

/** What the service receives for each request, beside `ctx`. */
export interface MicroVaultStrategyInput {
  vaultId: string;
  idempotencyKey: string;
  allocations: { sourceId: string; targetBps: number }[];
  idleTargetBps: number;
}

export interface MicroVaultPauseInput {
  vaultId: string;
  idempotencyKey: string;
  operation: MicroVaultOperation;
  paused: boolean;
}

/** The service's answer to a strategy or pause request; the gateway answers 202, or 200 on a replay. */
export interface MicroVaultSubmitReply {
  task: MicroVaultTaskDto;
  replayed: boolean;
}

export interface MicroVaultCreatedVault {
  id: string;
  orgId: string;
  chainId: number;
  address: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUsdAmount } from '@service/money';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

export const APPROVAL_POLICY_MODES = ['none', 'all', 'above_threshold'] as const;
export type ApprovalPolicyMode = (typeof APPROVAL_POLICY_MODES)[number];
export const APPROVAL_ACTIONS = ['approve', 'reject'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];
export const TURNKEY_REQUEST_TYPES = ['ACTIVITY_TYPE_APPROVE_ACTIVITY', 'ACTIVITY_TYPE_REJECT_ACTIVITY'] as const;
export const TURNKEY_ACTIVITY_STATUSES = [
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
  'ACTIVITY_STATUS_COMPLETED',
  'ACTIVITY_STATUS_REJECTED',
  'ACTIVITY_STATUS_FAILED',
] as const;
export type TurnkeyActivityStatus = (typeof TURNKEY_ACTIVITY_STATUSES)[number];
export const ACTIVITY_KINDS = [
  'withdrawal_payout',
  'deposit_address_setup',
  'approver_change',
  'policy_change',
  'address_book_change',
] as const;
/** What a change to an organization's approvers, policy or address book does (its audit action too). */
export const APPROVAL_CHANGE_KINDS = [
  'approver.created',
  'approver.deleted',
  'policy.updated',
  'address_book.created',
  'address_book.deleted',
] as const;
export type ApprovalChangeKind = (typeof APPROVAL_CHANGE_KINDS)[number];
export const APPROVAL_CHANGE_STATUSES = ['pending', 'approved', 'rejected', 'failed'] as const;

const COMPRESSED_P256 = /^0[23][0-9a-fA-F]{64}$/;

// ---------- approvers ----------

export class CreateApproverDto {
  @ApiProperty({ maxLength: 200, example: 'Treasury YubiKey' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  label!: string;

  @ApiProperty({
    example: '02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316',
    description: 'Compressed P-256 public key, 66 hex characters (the form of Turnkey API keys and `@turnkey/api-key-stamper`).',
  })
  @IsString()
  @Matches(COMPRESSED_P256, { message: 'publicKey must be a compressed P-256 public key: 66 hex characters starting with 02 or 03' })
  publicKey!: string;

  @ApiProperty({
    example: '1764000000000',
    description:
      'Milliseconds since the epoch, as a string, within 5 minutes of the server’s clock: the `X-Stamp` header stamps this exact body with the new key (proof that the caller holds it).',
  })
  @IsString()
  @Matches(/^[0-9]{1,16}$/, { message: 'timestampMs must be milliseconds since the epoch as a string of digits' })
  timestampMs!: string;
}

/**
 * What the gateway forwards for `POST /v2/approvals/approvers`: the body's fields, its exact text
 * (`signedBody`, what the stamp signs) and the `X-Stamp` header (null when absent).
 */
export interface CreateApproverRequest {
  readonly label: string;
  readonly publicKey: string;
  readonly timestampMs: string;
  readonly signedBody: string;
  readonly stamp: string | null;
}

export class ApproverDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  label!: string;

  @ApiProperty({ description: 'Compressed P-256 public key, lower-case hex.' })
  publicKey!: string;

  @ApiProperty()
  createdAt!: string;
}

export class ApproverListDto {
  @ApiProperty({ type: [ApproverDto] })
  data!: ApproverDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

export class ApproverDeletedDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

// ---------- changes that wait for the approvers ----------

/**
 * A change to the organization's approvers, policy or address book waiting for (or decided by) its
 * approvers' quorum: the 202 answer of a governed route.
 */
export class ApprovalChangeDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: APPROVAL_CHANGE_KINDS })
  kind!: ApprovalChangeKind;

  @ApiProperty({
    enum: APPROVAL_CHANGE_STATUSES,
    description:
      '`pending` until quorum approves it (`approved`, applied then), one approver rejects it (`rejected`) or `WALLET_APPROVAL_TTL_MS` passes (`failed`).',
  })
  status!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The pending activity the approvers vote on (`POST /v2/turnkey/activities/{activityId}/vote`).',
  })
  turnkeyActivityId!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What is asked: the approver, policy or address-book entry as it will be (for a deletion, the one deleted).',
  })
  change!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'What it replaces (the policy in force), null otherwise.',
  })
  before!: Record<string, unknown> | null;

  @ApiProperty({ description: 'Who asked (the token subject or API key principal).' })
  principalId!: string;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  updatedAt!: string;
}

/**
 * A governed route's answer on the wire: `applied` (the route's own answer, 200/201) when the
 * change cannot weaken protection or the organization has no approvers yet, else `pending` (202).
 */
export type GovernedReply<T> =
  { readonly applied: T; readonly pending?: undefined } | { readonly pending: ApprovalChangeDto; readonly applied?: undefined };

// ---------- policy ----------

export class PutApprovalPolicyDto {
  @ApiProperty({ enum: APPROVAL_POLICY_MODES, description: 'Which withdrawals wait for customer approval.' })
  @IsIn(APPROVAL_POLICY_MODES, { message: `withdrawals must be one of ${APPROVAL_POLICY_MODES.join(', ')}` })
  withdrawals!: ApprovalPolicyMode;

  @ApiPropertyOptional({
    example: '1000.000000',
    description:
      'USD, a string with at most six decimals (more: 400 `precision_overflow`); required with `above_threshold`: withdrawals above it wait for approval.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  @IsUsdAmount()
  thresholdUsd?: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 10, description: 'Distinct approvers whose approvals release an activity.' })
  @IsInt()
  @Min(1)
  @Max(10)
  quorum!: number;
}

export class ApprovalPolicyDto {
  @ApiProperty({ enum: APPROVAL_POLICY_MODES })
  withdrawals!: ApprovalPolicyMode;

  @ApiProperty({ type: String, nullable: true })
  thresholdUsd!: string | null;

  @ApiProperty({ type: 'integer' })
  quorum!: number;

  @ApiProperty({ type: String, nullable: true, description: 'When the policy was last set; null while the environment default applies.' })
  updatedAt!: string | null;
}

export class ApprovalAuditEntryDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: APPROVAL_CHANGE_KINDS })
  action!: string;

  @ApiProperty({ description: 'Who made the change (the token subject or API key principal).' })
  principalId!: string;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'The approver, policy or address-book entry before the change.',
  })
  before!: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'The approver, policy or address-book entry after the change.',
  })
  after!: Record<string, unknown> | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The activity whose quorum released the change; null for a change applied at once.',
  })
  turnkeyActivityId!: string | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The public keys of the approvers whose votes released the change; null for a change applied at once.',
  })
  approvedBy!: string[] | null;

  @ApiProperty()
  createdAt!: string;
}

export class ApprovalAuditListDto {
  @ApiProperty({ type: [ApprovalAuditEntryDto] })
  data!: ApprovalAuditEntryDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor!: string | null;
}

// ---------- pending activities and votes (the Turnkey-named routes) ----------

export class PendingActivityDto {
  @ApiProperty({ format: 'uuid' })
  turnkeyActivityId!: string;

  @ApiProperty({ enum: ['ACTIVITY_STATUS_CONSENSUS_NEEDED'] })
  status!: 'ACTIVITY_STATUS_CONSENSUS_NEEDED';

  @ApiProperty({ enum: ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2'] })
  activityType!: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';

  @ApiProperty({ enum: ACTIVITY_KINDS })
  activityKind!: string;

  @ApiProperty({ description: 'Hex SHA-256 of what is approved; a stamped request names it.' })
  fingerprint!: string;

  @ApiProperty()
  firstSeenAt!: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  withdrawalId!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  withdrawalLegId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The wallet of a payout or setup; null for a change to the organization’s approvers, policy or address book.',
  })
  portfolioWalletId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  destinationChain!: string | null;

  @ApiProperty({ type: String, nullable: true })
  destinationToken!: string | null;

  @ApiProperty({ type: String, nullable: true })
  destinationAddress!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Amount drawn from the source, in the token’s smallest units (USDC/USDT: 6 decimals).',
  })
  plannedSourceNativeUnits!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Amount shown to the approver, in the token’s smallest units.' })
  displayAmountNativeUnits!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Chain of the transaction to sign; null for a change to the organization’s approvers, policy or address book.',
  })
  txChain!: string | null;

  @ApiProperty({
    type: ApprovalChangeDto,
    nullable: true,
    description:
      'The change to the organization’s approvers, policy or address book this activity releases (`approver_change`, `policy_change`, `address_book_change`); null otherwise.',
  })
  change!: ApprovalChangeDto | null;
}

export class PendingActivitiesDto {
  @ApiProperty({ type: [PendingActivityDto] })
  activities!: PendingActivityDto[];
}

export class ApprovalRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsString()
  @Matches(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, { message: 'activityId must be a UUID' })
  activityId!: string;

  @ApiProperty({ enum: APPROVAL_ACTIONS })
  @IsIn(APPROVAL_ACTIONS, { message: 'action must be approve or reject' })
  action!: ApprovalAction;
}

export class TurnkeyParametersDto {
  @ApiProperty()
  @IsString()
  @MaxLength(128)
  fingerprint!: string;
}

/** The body a Turnkey client sends to approve or reject an activity; its canonical JSON text is what is signed. */
export class TurnkeyRequestDto {
  @ApiProperty({ enum: TURNKEY_REQUEST_TYPES })
  @IsIn(TURNKEY_REQUEST_TYPES, { message: `type must be one of ${TURNKEY_REQUEST_TYPES.join(', ')}` })
  type!: (typeof TURNKEY_REQUEST_TYPES)[number];

  @ApiProperty({ example: '1764000000000', description: 'Milliseconds since the epoch, as a string.' })
  @IsString()
  @Matches(/^[0-9]{1,16}$/, { message: 'timestampMs must be milliseconds since the epoch as a string of digits' })
  timestampMs!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(200)
  organizationId!: string;

  @ApiProperty({ type: TurnkeyParametersDto })
  @IsObject()
  @ValidateNested()
  @Type(() => TurnkeyParametersDto)
  parameters!: TurnkeyParametersDto;
}

export class ApprovalRequestResponseDto {
  @ApiProperty({ format: 'uuid' })
  activityId!: string;

  @ApiProperty({ enum: APPROVAL_ACTIONS })
  action!: ApprovalAction;

  @ApiProperty({ type: TurnkeyRequestDto })
  turnkeyRequest!: TurnkeyRequestDto;

  @ApiProperty({
    description: 'The exact JSON text of turnkeyRequest: the bytes the approver’s key signs (`stamper.stamp(stampPayload)`).',
  })
  stampPayload!: string;
}

export class StampHeaderDto {
  @ApiProperty({ example: 'X-Stamp' })
  stampHeaderName!: string;

  @ApiProperty({ description: 'base64url JSON `{publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature}`.' })
  stampHeaderValue!: string;
}

/** A stamp: the `X-Stamp` value as a string, or `{stampHeaderName, stampHeaderValue}` as `ApiKeyStamper.stamp` returns it. */
export type CustomerApprovalStamp = string | { stampHeaderName: string; stampHeaderValue: string };

const MAX_STAMP_LENGTH = 4096;
/** Longer than any HTTP header name a stamper uses (`X-Stamp`). */
const MAX_STAMP_HEADER_NAME_LENGTH = 64;

function isStamp(value: unknown): value is CustomerApprovalStamp {
  if (typeof value === 'string') return value.length > 0 && value.length <= MAX_STAMP_LENGTH;
  if (typeof value !== 'object' || value === null) return false;
  const { stampHeaderName, stampHeaderValue } = value as Record<string, unknown>;
  return (
    typeof stampHeaderName === 'string' &&
    stampHeaderName.length <= MAX_STAMP_HEADER_NAME_LENGTH &&
    typeof stampHeaderValue === 'string' &&
    stampHeaderValue.length <= MAX_STAMP_LENGTH
  );
}

export class VoteDto {
  @ApiProperty({ enum: APPROVAL_ACTIONS })
  @IsIn(APPROVAL_ACTIONS, { message: 'action must be approve or reject' })
  action!: ApprovalAction;

  @ApiProperty({
    oneOf: [{ type: 'string', description: 'The X-Stamp header value.' }, { $ref: '#/components/schemas/StampHeaderDto' }],
    description: 'What `ApiKeyStamper.stamp(stampPayload)` returned, or its `stampHeaderValue`.',
  })
  @ValidateBy({
    name: 'isStamp',
    validator: {
      validate: isStamp,
      defaultMessage: () => 'customerApprovalStamp must be the X-Stamp value or {stampHeaderName, stampHeaderValue}',
    },
  })
  customerApprovalStamp!: CustomerApprovalStamp;

  @ApiProperty({ type: TurnkeyRequestDto })
  @IsObject()
  @ValidateNested()
  @Type(() => TurnkeyRequestDto)
  turnkeyRequest!: TurnkeyRequestDto;
}

export class VoteResponseDto {
  @ApiProperty({ enum: APPROVAL_ACTIONS })
  action!: ApprovalAction;

  @ApiProperty({ description: 'Quorum reached: the leg or setup moves on by itself.' })
  approved!: boolean;

  @ApiProperty({ description: 'A valid reject: the leg is cancelled (or the setup refused).' })
  rejected!: boolean;

  @ApiProperty({ description: 'The activity had already completed before this vote; nothing recorded.' })
  alreadyCompleted!: boolean;

  @ApiProperty({ description: 'The activity had already ended (completed, rejected or failed) before this vote; nothing recorded.' })
  alreadyTerminal!: boolean;

  @ApiProperty({ enum: TURNKEY_ACTIVITY_STATUSES })
  status!: TurnkeyActivityStatus;

  @ApiProperty({
    description:
      'The status of what the activity releases: the payout leg (`pending_customer_approval`, `pending_broadcast`, `cancelled`, `failed`, ...), the setup or the change to approvers, policy or address book (`pending`, `approved`, `rejected`, `failed`).',
  })
  resultStatus!: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { ROLES, type Role } from '../rpc.js';
import { MAX_TIMESTAMP_LENGTH } from './page.dto.js';

/** How long a rolled key keeps working beside its successor, at most: a week. */
export const API_KEY_MAX_ROLL_GRACE_SECONDS = 604_800;

export class CreateApiKeyDto {
  @ApiProperty({ description: 'What the key is for; shown in listings', minLength: 1, maxLength: 100, example: 'Ledger sync' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters' })
  name!: string;

  @ApiProperty({ enum: ROLES, description: 'Role the key acts with. An admin cannot create an `owner` key.' })
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role!: Role;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: MAX_TIMESTAMP_LENGTH,
    description: 'When the key stops working; in the future. Absent: never.',
  })
  @IsOptional()
  @MaxLength(MAX_TIMESTAMP_LENGTH, { message: 'expiresAt must be an ISO 8601 date-time' })
  @IsISO8601({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time' })
  expiresAt?: string;
}

export class RollApiKeyDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: API_KEY_MAX_ROLL_GRACE_SECONDS,
    default: 0,
    description: 'How long the old key keeps working beside the new one; 0 (the default) revokes it at once.',
  })
  @IsOptional()
  @IsInt({ message: `expiresInSeconds must be an integer from 0 to ${API_KEY_MAX_ROLL_GRACE_SECONDS}` })
  @Min(0, { message: `expiresInSeconds must be an integer from 0 to ${API_KEY_MAX_ROLL_GRACE_SECONDS}` })
  @Max(API_KEY_MAX_ROLL_GRACE_SECONDS, { message: `expiresInSeconds must be an integer from 0 to ${API_KEY_MAX_ROLL_GRACE_SECONDS}` })
  expiresInSeconds?: number;
}

/** What a key is, without its secret. */
class ApiKeyFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ description: 'The last 4 characters of the key, to tell keys apart', example: 'x9Qa' }) last4!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never expires' }) expiresAt!: string | null;
}

/** A key as listings show it: never the secret. */
export class ApiKeyDto extends ApiKeyFieldsDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last request made with the key, to the minute; null when never used',
  })
  lastUsedAt!: string | null;
}

/** A new key: the only answer that holds the secret. */
export class CreatedApiKeyDto extends ApiKeyFieldsDto {
  @ApiProperty({
    description:
      'The secret key, `service_sandbox_...` or `service_prod_...`: shown only in this answer. Send it as `Authorization: Bearer <key>`.',
    example: 'service_sandbox_4Rj2...',
  })
  key!: string;
}

export class ApiKeyPageDto {
  @ApiProperty({ type: [ApiKeyDto] }) data!: ApiKeyDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class RevokedApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) revoked!: true;
}

/** What a presented key stands for (identity-service -> gateway). */
export interface ApiKeyPrincipal {
  readonly keyId: string;
  readonly orgId: string;
  readonly role: Role;
  /** ISO 8601; null when the key never expires. */
  readonly expiresAt: string | null;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { GTOKEN_EVENTS, PORTFOLIO_WALLET_WEBHOOK_EVENTS, WEBHOOK_ENDPOINT_EVENTS, type WebhookFamily } from '../events/types.js';

/** Several property decorators as one. */
function applyDecorators(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/**
 * An optional field that, when present, must hold a valid value: leaving it out changes nothing,
 * but an explicit `null` is checked like any other value (and fails), unlike `@IsOptional`.
 */
const OmittableOnly = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

const MAX_URL_LENGTH = 2048;
const MAX_DESCRIPTION_JSON_LENGTH = 2000;

/** `url`: an absolute http(s) URL; the https-only and public-address policy is the service's. */
function UrlField(options: { optional?: boolean } = {}) {
  const doc = { description: 'Callback address (https and a public address in production)', example: 'https://example.com/hooks' };
  return applyDecorators(
    options.optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    ...(options.optional ? [OmittableOnly()] : []),
    IsString({ message: 'url must be a string' }),
    MaxLength(MAX_URL_LENGTH, { message: `url must be at most ${MAX_URL_LENGTH} characters` }),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true },
      { message: 'url must be an absolute http or https URL' },
    ),
  );
}

/** `events`: at least one type, each from the family's own catalogue. */
function EventsField(events: readonly string[], options: { optional?: boolean } = {}) {
  const doc = { enum: [...events], isArray: true, minItems: 1, description: 'Subscribed event types' } as const;
  return applyDecorators(
    options.optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    ...(options.optional ? [OmittableOnly()] : []),
    IsArray({ message: 'events must be an array of event types' }),
    ArrayMinSize(1, { message: 'events must contain at least 1 event type' }),
    ArrayMaxSize(events.length * 4, { message: 'events has too many items' }),
    IsIn(events, { each: true, message: `events must contain only these event types: ${events.join(', ')}` }),
  );
}

/** `description`: stored when it is a truthy JSON value, as the interface's implementation does. */
function DescriptionField() {
  return applyDecorators(
    ApiPropertyOptional({ description: 'Free text; stored when truthy', example: 'Ledger sync' }),
    Allow(),
    ValidateBy({
      name: 'descriptionSize',
      validator: {
        validate: (value: unknown) => value === undefined || JSON.stringify(value).length <= MAX_DESCRIPTION_JSON_LENGTH,
        defaultMessage: () => `description must be at most ${MAX_DESCRIPTION_JSON_LENGTH} characters of JSON`,
      },
    }),
  );
}

export class CreateWebhookDto {
  @UrlField() url!: string;
  @EventsField(PORTFOLIO_WALLET_WEBHOOK_EVENTS) events!: string[];
  @DescriptionField() description?: unknown;
}

export class UpdateWebhookDto {
  @UrlField({ optional: true }) url?: string;
  @EventsField(PORTFOLIO_WALLET_WEBHOOK_EVENTS, { optional: true }) events?: string[];
  @DescriptionField() description?: unknown;
}

export class CreateWebhookEndpointDto {
  @UrlField() url!: string;
  @EventsField(WEBHOOK_ENDPOINT_EVENTS) events!: string[];
  @DescriptionField() description?: unknown;
}

export class UpdateWebhookEndpointDto {
  @UrlField({ optional: true }) url?: string;
  @EventsField(WEBHOOK_ENDPOINT_EVENTS, { optional: true }) events?: string[];
  @DescriptionField() description?: unknown;
}

export class CreateGVaultWebhookDto {
  @UrlField() url!: string;
  @EventsField(GTOKEN_EVENTS) events!: string[];
  @DescriptionField() description?: unknown;
}

export class UpdateGVaultWebhookDto {
  @UrlField({ optional: true }) url?: string;
  @EventsField(GTOKEN_EVENTS, { optional: true }) events?: string[];
  @DescriptionField() description?: unknown;
}

export class WebhookRegistrationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String] }) events!: string[];
  @ApiPropertyOptional({ description: 'Present when stored' }) description?: unknown;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class CreatedWebhookRegistrationDto extends WebhookRegistrationDto {
  @ApiProperty({ description: 'Signing secret, 64 hex characters; shown only here', pattern: '^[0-9a-f]{64}$' })
  secret!: string;
}

/** How long a rotated-out signing secret keeps signing beside the new one when the request does not say: a day. */
export const WEBHOOK_SECRET_DEFAULT_OVERLAP_SECONDS = 86_400;
/** The longest overlap a rotation may ask for: a week. */
export const WEBHOOK_SECRET_MAX_OVERLAP_SECONDS = 604_800;

const OVERLAP_MESSAGE = `expiresInSeconds must be an integer from 0 to ${WEBHOOK_SECRET_MAX_OVERLAP_SECONDS}`;

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: WEBHOOK_SECRET_MAX_OVERLAP_SECONDS,
    default: WEBHOOK_SECRET_DEFAULT_OVERLAP_SECONDS,
    description:
      'How long the old secret keeps signing deliveries beside the new one (each delivery then carries both signatures); 0 stops it at once.',
  })
  @IsOptional()
  @IsInt({ message: OVERLAP_MESSAGE })
  @Min(0, { message: OVERLAP_MESSAGE })
  @Max(WEBHOOK_SECRET_MAX_OVERLAP_SECONDS, { message: OVERLAP_MESSAGE })
  expiresInSeconds?: number;
}

export class RotatedWebhookSecretDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The new signing secret, 64 hex characters; shown only here', pattern: '^[0-9a-f]{64}$' })
  secret!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until when deliveries are also signed with the old secret; the request time when expiresInSeconds was 0',
  })
  previousSecretExpiresAt!: string;
}

export class WebhookRegistrationPageDto {
  @ApiProperty({ type: [WebhookRegistrationDto] }) data!: WebhookRegistrationDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class DeletedWebhookDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retry_scheduled', 'completed', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export class WebhookEmissionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The delivery event this attempt belongs to' }) eventId!: string;
  @ApiProperty({ type: 'integer' }) attemptNumber!: number;
  @ApiProperty({ format: 'date-time' }) requestedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while the attempt runs' })
  completedAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the receiver; null when it did not answer' })
  responseStatus!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) responseMs!: number | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage!: string | null;
}

export class WebhookDeliveryRegistrationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() callbackUrl!: string;
}

export class WebhookDeliveryEventDto {
  @ApiProperty({ format: 'uuid', description: 'Also the Service-Event-Id header of every attempt' }) id!: string;
  @ApiProperty({ format: 'uuid' }) registrationId!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The delivered body' })
  payload!: Record<string, unknown>;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'Delivery status, separate from any business status in the payload' })
  status!: WebhookDeliveryStatus;
  @ApiProperty({ type: 'integer' }) attemptCount!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: WebhookDeliveryRegistrationDto }) registration!: WebhookDeliveryRegistrationDto;
  @ApiProperty({ type: WebhookEmissionDto, nullable: true, description: 'null before the first attempt' })
  latestEmission!: WebhookEmissionDto | null;
}

export class WebhookDeliveryEventPageDto {
  @ApiProperty({ type: [WebhookDeliveryEventDto] }) data!: WebhookDeliveryEventDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

/** What the gateway sends with every webhook subject beside `ctx`. */
export interface WebhookFamilyInput {
  readonly family: WebhookFamily;
}

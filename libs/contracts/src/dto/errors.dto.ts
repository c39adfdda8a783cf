import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_STATUS, MICROVAULT_ERROR_STATUS } from '@service/errors';

/** `{error, code}`: every error but 401, MicroVault errors and ping's 500. */
export class ErrorBodyDto {
  @ApiProperty({ description: 'Human-readable; may change.' })
  error!: string;

  @ApiProperty({ enum: Object.keys(ERROR_STATUS), description: 'Stable; safe to switch on.' })
  code!: string;
}

export class ErrorBalanceDto {
  @ApiProperty({ example: '100.000000' })
  totalUsd!: string;

  @ApiProperty()
  withdrawableUsd!: string;

  @ApiProperty()
  reservedUsd!: string;
}

/** A 409: `insufficient_funds` carries the wallet's balance; the other conflicts are `{error, code}`. */
export class ConflictErrorBodyDto extends ErrorBodyDto {
  @ApiPropertyOptional({ type: ErrorBalanceDto, description: "`insufficient_funds` only: the wallet's balance now." })
  balance?: ErrorBalanceDto;
}

export class UnavailableErrorBodyDto extends ErrorBodyDto {
  @ApiProperty({ description: 'Retry with the same request id when true.' })
  retryable!: boolean;
}

export class UnauthorizedErrorBodyDto {
  @ApiProperty()
  error!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  message!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: ['unauthenticated', 'forbidden'] })
  code!: string | null;
}

export class MicroVaultErrorBodyDto {
  @ApiProperty({ enum: [...Object.keys(MICROVAULT_ERROR_STATUS), 'service_temporarily_unavailable', 'internal_error'] })
  error!: string;

  @ApiProperty()
  message!: string;
}

/** Ping's 500: `{error}` only. */
export class PingErrorBodyDto {
  @ApiProperty()
  error!: string;
}

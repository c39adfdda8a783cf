import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';

const LIMIT = /^(100|[1-9][0-9]?)$/;
const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

/**
 * `cursor` and `limit` of every list. The query string's `limit` becomes a number here, at the
 * gateway, so services receive it checked; absent, each list applies its own default.
 */
export class PageQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from a previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, type: 'integer' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && LIMIT.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_MESSAGE })
  limit?: number;
}

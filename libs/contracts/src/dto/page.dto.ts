import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `cursor` and `limit` of every list; `limit` is bounded by the service with the list's default. */
export class PageQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from a previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, type: 'integer' })
  @IsOptional()
  @Matches(/^(100|[1-9][0-9]?)$/, { message: 'limit must be an integer from 1 to 100' })
  limit?: string;
}


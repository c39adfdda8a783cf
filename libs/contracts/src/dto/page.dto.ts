import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

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
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(100, { message: LIMIT_MESSAGE })
  limit?: number;
}

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];
export const LIST_SORTS = ['createdAt'] as const;

/** A repeatable query parameter as a list: one value, or the array a repeated parameter gives. */
export const asList = ({ value }: { value: unknown }): unknown => (value === undefined || Array.isArray(value) ? value : [value]);

/** Values a repeatable filter takes at most: every status once, and room to spare for repeats. */
export const MAX_FILTER_VALUES = 20;

/** Longer than any ISO 8601 timestamp, whose fraction of a second may otherwise run on. */
export const MAX_TIMESTAMP_LENGTH = 64;

/**
 * The list filters the real API documents on wallets, deposits and withdrawals beside `cursor`
 * and `limit`: `sort` (only `createdAt`), `order` and `createdAtGte`. Each list adds its
 * repeatable `status`. A cursor is valid only under the filters and order it was made with.
 */
export class ListFilterQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: LIST_SORTS, default: 'createdAt', description: 'The only sort key.' })
  @IsOptional()
  @IsIn(LIST_SORTS, { message: 'sort must be createdAt' })
  sort?: (typeof LIST_SORTS)[number];

  @ApiPropertyOptional({ enum: LIST_ORDERS, default: 'desc', description: '`desc`: newest first; `asc`: oldest first.' })
  @IsOptional()
  @IsIn(LIST_ORDERS, { message: 'order must be asc or desc' })
  order?: ListOrder;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: MAX_TIMESTAMP_LENGTH,
    example: '2026-11-21T00:00:00.000Z',
    description: 'Only items created at or after this ISO 8601 timestamp.',
  })
  @IsOptional()
  @MaxLength(MAX_TIMESTAMP_LENGTH, { message: 'createdAtGte must be an ISO 8601 timestamp' })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'createdAtGte must be an ISO 8601 timestamp' })
  createdAtGte?: string;
}

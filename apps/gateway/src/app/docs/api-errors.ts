import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import {
  ConflictErrorBodyDto,
  ErrorBodyDto,
  MicroVaultErrorBodyDto,
  PingErrorBodyDto,
  UnauthorizedErrorBodyDto,
  UnavailableErrorBodyDto,
} from '@service/contracts';

/**
 * The error bodies every route can answer with, for the OpenAPI document: 401 and 429 on all,
 * 503 where a service is asked, 400/404/409 as the route declares.
 */
export function ApiStandardErrors(options: { ping?: boolean; forwarded?: boolean; statuses?: number[]; microvault?: boolean } = {}) {
  const decorators = [
    ApiResponse({ status: 401, description: 'Missing, invalid or expired bearer token', type: UnauthorizedErrorBodyDto }),
    ApiResponse({ status: 429, description: 'Rate limit exceeded (`rate_limited`)', type: ErrorBodyDto }),
  ];
  if (options.ping) decorators.push(ApiResponse({ status: 500, description: 'Unexpected failure', type: PingErrorBodyDto }));
  else {
    const type = options.microvault ? MicroVaultErrorBodyDto : ErrorBodyDto;
    decorators.push(ApiResponse({ status: 500, description: 'Unexpected failure (`internal_error`)', type }));
  }
  if (options.forwarded) {
    decorators.push(ApiResponse({ status: 503, description: 'Service temporarily unavailable; retryable', type: UnavailableErrorBodyDto }));
  }
  for (const status of options.statuses ?? []) {
    // A 409 may be `insufficient_funds`, whose body also carries the wallet's balance.
    const type = options.microvault ? MicroVaultErrorBodyDto : status === 409 ? ConflictErrorBodyDto : ErrorBodyDto;
    decorators.push(ApiResponse({ status, type }));
  }
  return applyDecorators(...decorators);
}

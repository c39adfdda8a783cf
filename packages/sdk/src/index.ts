export { ServiceClient } from './client.js';
export {
  type ApiResponse,
  ClientCore,
  ENVIRONMENTS,
  type Environment,
  newIdempotencyKey,
  type SendOptions,
  type ServiceClientOptions,
} from './core.js';
export {
  ERROR_CODES,
  type ErrorCode,
  MICROVAULT_ERROR_CODES,
  type MicroVaultErrorCode,
  ServiceApiError,
  ServiceConnectionError,
  ServiceTimeoutError,
} from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { DEFAULT_TO_ARRAY_LIMIT, ListTooLongError, type Page, PageIterator } from './pagination.js';
export * from './resources.js';
export { DEFAULT_TIMEOUT_MS, isRetryable, type RequestOptions, retryAfterMs, type RetryOptions } from './transport.js';
export * from './webhooks.js';

export { ServiceClient } from './client.js';
export { type ApiResponse, ClientCore, ENVIRONMENTS, type Environment, newIdempotencyKey, type SendOptions, type ServiceClientOptions } from './core.js';
export { ERROR_CODES, type ErrorCode, MICROVAULT_ERROR_CODES, type MicroVaultErrorCode, ServiceApiError } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export { type Page, PageIterator } from './pagination.js';
export * from './resources.js';
export { isRetryable, retryAfterMs, type RetryOptions } from './transport.js';
export * from './webhooks.js';

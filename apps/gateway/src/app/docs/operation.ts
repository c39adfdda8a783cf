import { ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';

/**
 * A route's OpenAPI operation with its explicit `operationId`: a camelCase verb and noun
 * (`createWallet`, `listWalletDeposits`), unique across the document and independent of the
 * controller's class and method names. The SDK's parameter types are keyed by it, so it never
 * changes once published. `openapi.spec.ts` checks that every route has one and that none repeats.
 */
export function Operation(operationId: string, options: Omit<ApiOperationOptions, 'operationId'> = {}): MethodDecorator {
  return ApiOperation({ ...options, operationId });
}

import { type ErrorCode, isErrorCode, isRetryable, statusOf } from './codes.js';
import { unavailabilityOf } from './unavailable.js';

/**
 * Fields an error body carries beside `error` and `code` (e.g. `balance` on `insufficient_funds`):
 * plain JSON, shown to clients like the message.
 */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The one error class services throw. It crosses NATS as an {@link RpcErrorPayload} and becomes
 * the HTTP body in the gateway; its message and `details` are shown to clients, so they never
 * hold internals.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = statusOf(code);
    this.retryable = isRetryable(code);
  }
}

/** What a service replies over NATS instead of a result. */
export interface RpcErrorPayload {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  readonly retryable?: boolean;
  /** Extra body fields of the error, passed through to the HTTP body. */
  readonly details?: ErrorDetails;
}

export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred.';

export function internalError(): RpcErrorPayload {
  return { status: 500, code: 'internal_error', message: INTERNAL_ERROR_MESSAGE };
}

export function unavailableError(message = 'A dependency is temporarily unavailable. Retry with the same request id.'): RpcErrorPayload {
  return { status: 503, code: 'service_temporarily_unavailable', message, retryable: true };
}

/**
 * Turns anything thrown into the payload sent to the caller. A dependency that cannot be used
 * right now (see {@link unavailabilityOf}: the database down, restarting or out of free
 * connections) becomes `service_temporarily_unavailable`, retryable; other unknown exceptions
 * become `internal_error`. Their detail is for the logs only, never for the reply.
 */
export function toRpcError(error: unknown): RpcErrorPayload {
  if (error instanceof ServiceError) {
    const payload = {
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
    return error.retryable ? { ...payload, retryable: true } : payload;
  }
  return unavailabilityOf(error) === undefined ? internalError() : unavailableError();
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate['status'] === 'number' &&
    typeof candidate['code'] === 'string' &&
    isErrorCode(candidate['code']) &&
    typeof candidate['message'] === 'string' &&
    (candidate['details'] === undefined ||
      (typeof candidate['details'] === 'object' && candidate['details'] !== null && !Array.isArray(candidate['details'])))
  );
}

/** The stable code of the ServiceError `fn` throws (for checks and tests); undefined when it throws nothing, the text of any other error. */
export function thrownCode(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof ServiceError ? error.code : String(error);
  }
}

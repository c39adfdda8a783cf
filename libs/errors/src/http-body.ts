import { isMicroVaultErrorCode } from './codes.js';
import type { RpcErrorPayload } from './service-error.js';

export type ErrorBody =
  | { error: string; code: string; retryable?: boolean; [detail: string]: unknown }
  | { error: string; message: string | null; code: string }
  | { error: string; message: string };

/**
 * The HTTP body for an error, in the shape the interface gives each family:
 * `{error, code}` in general (with the error's `details` beside them, which never replace
 * `error` or `code`), `retryable` on 503, `{error, message, code}` on 401 and
 * `{error: <code>, message}` for MicroVault errors.
 */
export function toHttpErrorBody(payload: RpcErrorPayload): ErrorBody {
  if (isMicroVaultErrorCode(payload.code)) {
    return { error: payload.code, message: payload.message };
  }
  if (payload.status === 401) {
    return { error: 'Unauthorized', message: payload.message, code: payload.code };
  }
  if (payload.status === 503) {
    return { error: payload.message, code: payload.code, retryable: payload.retryable ?? true };
  }
  return { ...payload.details, error: payload.message, code: payload.code };
}

import { ERROR_CODES, MICROVAULT_ERROR_CODES } from './generated/codes.js';

/** A stable `code` of the API's error bodies (`{error, code}`): safe to switch on. */
export type ErrorCode = (typeof ERROR_CODES)[number];
/** A code a MicroVault route reports in `error` (its bodies have no `code`). */
export type MicroVaultErrorCode = (typeof MICROVAULT_ERROR_CODES)[number];

export { ERROR_CODES, MICROVAULT_ERROR_CODES };

const STABLE = new Set<string>([...ERROR_CODES, ...MICROVAULT_ERROR_CODES]);

function codeOf(body: unknown): ErrorCode | MicroVaultErrorCode | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { code, error } = body as { code?: unknown; error?: unknown };
  if (typeof code === 'string' && STABLE.has(code)) return code as ErrorCode;
  // MicroVault bodies: `{error: <code>, message}`.
  if (typeof error === 'string' && STABLE.has(error)) return error as MicroVaultErrorCode;
  return undefined;
}

function messageOf(status: number, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return `HTTP ${status}`;
}

/**
 * Any answer of the API that is not 2xx. `code` is the stable code (from `code`, or from `error`
 * on MicroVault routes), `undefined` only for a body without one (ping's 500, a proxy's page).
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError';
  readonly status: number;
  readonly code: ErrorCode | MicroVaultErrorCode | undefined;
  /** The parsed JSON body (or the text when it was not JSON). */
  readonly body: unknown;
  /** The `Request-Id` response header: quote it when asking for support. */
  readonly requestId: string | undefined;

  constructor(status: number, body: unknown, requestId?: string) {
    super(messageOf(status, body));
    this.status = status;
    this.code = codeOf(body);
    this.body = body;
    this.requestId = requestId;
  }
}

/**
 * A call that got no answer: the connection was refused or reset, or closed before the answer
 * was complete. Thrown once every attempt allowed has failed (a write without an idempotency key
 * gets one attempt); `cause` is the last network error.
 */
export class ServiceConnectionError extends Error {
  override readonly name: string = 'ServiceConnectionError';
  /** How many attempts were sent. */
  readonly attempts: number;

  constructor(message: string, attempts: number, cause?: unknown) {
    super(message, { cause });
    this.attempts = attempts;
  }
}

/** A call whose last attempt took longer than its `timeoutMs` (the connection was then closed). */
export class ServiceTimeoutError extends ServiceConnectionError {
  override readonly name: string = 'ServiceTimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number, attempts: number) {
    super(`No complete answer within ${timeoutMs} ms (attempt ${attempts}); raise timeoutMs or retry later.`, attempts);
    this.timeoutMs = timeoutMs;
  }
}

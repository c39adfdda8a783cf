import { ServiceConnectionError, ServiceTimeoutError } from './errors.js';

/**
 * Retries of 429 and retryable 503 answers, and of network errors (connection refused or reset,
 * timeout) on reads and on writes that carry their idempotency key, with exponential backoff,
 * full jitter and `Retry-After`.
 */
export interface RetryOptions {
  /** Attempts in all, the first included, whatever made them fail (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** The first backoff ceiling in ms, doubled on each retry (default 250). */
  baseDelayMs?: number;
  /** The longest wait between two attempts, `Retry-After` included (default 30 000). */
  maxDelayMs?: number;
}

/** 503 codes that say "try again": the request may be resent with the same idempotency key. */
const RETRYABLE_503_CODES = new Set(['service_temporarily_unavailable', 'wallet_projection_unavailable']);

/** True when the answer is worth sending again: a 429, or a 503 the API marks as retryable. */
export async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 503) return false;
  try {
    const body = (await response.clone().json()) as { retryable?: unknown; code?: unknown; error?: unknown };
    return body.retryable === true || RETRYABLE_503_CODES.has(String(body.code)) || RETRYABLE_503_CODES.has(String(body.error));
  } catch {
    return false;
  }
}

/** `Retry-After` as milliseconds from now (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Per-call settings, the last argument of every resource method. */
export interface RequestOptions {
  /** Cancels the call (waits between attempts included); it then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** How long one attempt may take, answer body included (default: the client's `timeoutMs`, 80 000). */
  timeoutMs?: number;
  /** Attempts in all for this call, the first included (default: the client's `retry.maxAttempts`, 4). */
  maxAttempts?: number;
}

/** What the transport needs to know of one call. */
export interface CallOptions extends RequestOptions {
  /**
   * The request carries this API's idempotency key in its body (`requestId`), so resending it after
   * a network error cannot apply it twice. Reads and requests with an `Idempotency-Key` header are
   * safe to resend without it.
   */
  idempotent?: boolean;
}

/** The default time one attempt may take (Stripe's Node SDK default, 80 s). */
export const DEFAULT_TIMEOUT_MS = 80_000;

export interface TransportOptions {
  retry?: RetryOptions;
  /** The default of {@link RequestOptions.timeoutMs}. */
  timeoutMs?: number;
  /** The fetch to send with (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter (tests replace it). */
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection with `signal.reason` as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Sends one attempt and reads its whole body, so the timeout covers the answer too. */
async function attemptOnce(send: (request: Request) => Promise<Response>, request: Request, signal: AbortSignal): Promise<Response> {
  const response = await unlessAborted(send(new Request(request, { signal })), signal);
  const body = await unlessAborted(response.arrayBuffer(), signal);
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A read, a request with an `Idempotency-Key` header, or one the caller marked idempotent. */
function safeToResend(request: Request, call: CallOptions): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers.has('idempotency-key') || call.idempotent === true;
}

/**
 * A fetch that resends a request answered 429 or retryable 503, and one that failed on the network
 * (connection refused or reset, timeout) when it is safe to resend: a read, or a write that
 * carries its idempotency key. The request is resent byte for byte, so a write carries the same
 * `requestId` or `Idempotency-Key` on every attempt.
 */
export function retryingFetch(options: TransportOptions = {}): (request: Request, call?: CallOptions) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  return async (request, call = {}) => {
    const maxAttempts = Math.max(1, call.maxAttempts ?? options.retry?.maxAttempts ?? 4);
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const cancel = call.signal ? AbortSignal.any([call.signal, request.signal]) : request.signal;
    const backoff = (attempt: number) => random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    for (let attempt = 1; ; attempt += 1) {
      if (cancel.aborted) throw cancel.reason as Error;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new ServiceTimeoutError(timeoutMs, attempt)), timeoutMs);
      let response: Response;
      try {
        // A Request body can be read once: each attempt sends a copy.
        response = await attemptOnce(send, request.clone(), AbortSignal.any([cancel, timeout.signal]));
      } catch (error) {
        if (cancel.aborted) throw cancel.reason as Error;
        const failure = timeout.signal.aborted
          ? new ServiceTimeoutError(timeoutMs, attempt)
          : new ServiceConnectionError(`${request.method} ${request.url} failed: ${messageOf(error)}`, attempt, error);
        if (attempt >= maxAttempts || !safeToResend(request, call)) throw failure;
        await unlessAborted(sleep(backoff(attempt)), cancel);
        continue;
      } finally {
        clearTimeout(timer);
      }
      if (attempt >= maxAttempts || !(await isRetryable(response))) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      await unlessAborted(sleep(Math.min(maxDelayMs, Math.max(backoff(attempt), asked ?? 0))), cancel);
    }
  };
}

/** The error's message and its causes' (`fetch failed: connect ECONNREFUSED 127.0.0.1:3000`). */
function messageOf(error: unknown): string {
  const parts: string[] = [];
  // Errors of another realm (undici's) fail `instanceof Error`: read them by shape.
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 4; depth += 1) {
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    parts.push(typeof message === 'string' ? message : String(current));
    current = typeof current === 'object' ? cause : undefined;
  }
  return parts.join(': ');
}

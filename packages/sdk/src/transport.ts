/** Retries of 429 and retryable 503 answers, with exponential backoff, full jitter and `Retry-After`. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
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

export interface TransportOptions {
  retry?: RetryOptions;
  /** The fetch to send with (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter (tests replace it). */
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that resends a request answered 429 or retryable 503. The request is resent byte for
 * byte, so a write carries the same `requestId` or `Idempotency-Key` on every attempt.
 */
export function retryingFetch(options: TransportOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxAttempts = Math.max(1, options.retry?.maxAttempts ?? 4);
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  return async (request) => {
    for (let attempt = 1; ; attempt += 1) {
      // A Request body can be read once: each attempt sends a copy.
      const response = await send(attempt < maxAttempts ? request.clone() : request);
      if (attempt >= maxAttempts || !(await isRetryable(response))) return response;
      const backoff = random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      const asked = retryAfterMs(response.headers.get('retry-after'));
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, Math.max(backoff, asked ?? 0)));
    }
  };
}

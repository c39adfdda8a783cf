/**
 * When a failed attempt is tried again: immediately, then after about 5 s, 5 min, 30 min, 2 h,
 * 5 h and 10 h, and a last try 24 h after the first (docs/integrators/webhooks.md). Each delay gets up to 10 %
 * jitter so receivers coming back up are not hit by every retry at once.
 */
const HOUR = 3_600_000;
const DELAYS_MS = [5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR];
const LAST_TRY_AFTER_FIRST_MS = 24 * HOUR;
export const RETRY_DELAYS_MS = [...DELAYS_MS, LAST_TRY_AFTER_FIRST_MS - DELAYS_MS.reduce((sum, delay) => sum + delay, 0)];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export type AttemptOutcome =
  | { kind: 'delivered' }
  /** Worth trying again: network error, timeout, 408, 429, 5xx. */
  | { kind: 'retryable'; retryAfterMs: number | null }
  /** Any other 4xx: the receiver refused this event for good. */
  | { kind: 'rejected'; disableRegistration: boolean };

export function classifyResponse(status: number | null, retryAfter?: string | null, now = Date.now()): AttemptOutcome {
  if (status === null) return { kind: 'retryable', retryAfterMs: null };
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retryable', retryAfterMs: status === 429 ? parseRetryAfter(retryAfter, now) : null };
  }
  return { kind: 'rejected', disableRegistration: status === 410 };
}

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Delay before the attempt after `attemptsMade`, or null when none is left. The schedule is
 * scaled (tests); a receiver's Retry-After is honoured when it asks for longer, up to the last delay.
 */
export function nextRetryDelayMs(attemptsMade: number, scale: number, retryAfterMs: number | null, random = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const scheduled = base * scale * (1 + 0.1 * random());
  const lastDelay = LAST_TRY_AFTER_FIRST_MS * scale;
  return Math.round(Math.min(Math.max(scheduled, retryAfterMs ?? 0), lastDelay));
}

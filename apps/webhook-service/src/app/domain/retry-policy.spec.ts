import { describe, expect, it } from '@jest/globals';
import { classifyResponse, MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, RETRY_DELAYS_MS } from './retry-policy.js';

describe('retry policy', () => {
  it('retries network errors, timeouts, 408, 429 and 5xx; fails other 4xx; 410 disables', () => {
    expect(classifyResponse(204)).toEqual({ kind: 'delivered' });
    for (const status of [null, 408, 500, 503]) expect(classifyResponse(status)).toEqual({ kind: 'retryable', retryAfterMs: null });
    expect(classifyResponse(429, '7')).toEqual({ kind: 'retryable', retryAfterMs: 7_000 });
    expect(classifyResponse(400)).toEqual({ kind: 'rejected', disableRegistration: false });
    expect(classifyResponse(301)).toEqual({ kind: 'rejected', disableRegistration: false });
    expect(classifyResponse(410)).toEqual({ kind: 'rejected', disableRegistration: true });
  });

  it('follows the schedule up to a last try 24 h after the first, then stops', () => {
    const noJitter = () => 0;
    const delays = RETRY_DELAYS_MS.map((_, index) => nextRetryDelayMs(index + 1, 1, null, noJitter));
    expect(delays.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(delays.reduce((sum, delay) => (sum ?? 0) + (delay ?? 0), 0)).toBe(24 * 3_600_000);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextRetryDelayMs(MAX_ATTEMPTS, 1, null)).toBeNull();
  });

  it('scales the schedule, adds at most 10 % jitter and honours a longer Retry-After', () => {
    expect(nextRetryDelayMs(1, 0.001, null, () => 0)).toBe(5);
    expect(nextRetryDelayMs(1, 1, null, () => 1)).toBe(5_500);
    expect(nextRetryDelayMs(1, 1, 60_000, () => 0)).toBe(60_000);
    expect(nextRetryDelayMs(1, 1, 10 * 86_400_000, () => 0)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

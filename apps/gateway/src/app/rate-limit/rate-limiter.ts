import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type EndpointClass = 'read' | 'write';

const WINDOW_MS = 60_000;
const LOG_EVERY_MS = 10_000;

/**
 * Sliding-window estimate in one round trip: the current minute's counter is incremented and the
 * previous minute's read; the caller weighs the previous one by how much of it still overlaps.
 */
const HIT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
return {current, previous}
`;

type RedisWithHit = Redis & { rateLimitHit(current: string, previous: string, ttlMs: number): Promise<[number, number]> };

export interface RateDecision {
  readonly allowed: boolean;
  readonly retryAfterSeconds: number;
}

/**
 * Per principal and endpoint class, counted in Redis so every gateway replica spends one budget.
 * If Redis cannot answer the request is let through (and logged): losing the limiter must not
 * take the API down.
 */
export class RateLimiter {
  private lastWarning = 0;
  private readonly redis: RedisWithHit;

  constructor(
    redis: Redis,
    private readonly limits: Record<EndpointClass, number>,
    private readonly logger: Logger,
  ) {
    redis.defineCommand('rateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(identity: string, endpointClass: EndpointClass, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const prefix = `rl:${endpointClass}:${identity}:`;
    let counts: [number, number];
    try {
      counts = await this.redis.rateLimitHit(prefix + window, prefix + (window - 1), WINDOW_MS * 2);
    } catch (error) {
      this.warn(error);
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const [current, previous] = counts;
    const overlap = 1 - (now % WINDOW_MS) / WINDOW_MS;
    const estimate = current + previous * overlap;
    if (estimate <= this.limits[endpointClass]) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000)) };
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < LOG_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'rate limiter cannot reach Redis; letting requests through');
  }
}

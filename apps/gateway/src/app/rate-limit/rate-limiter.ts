import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * What a budget counts: a principal's reads (GET) and writes (the rest), or a client address's
 * requests that carried no working credential (`unauthenticated`).
 */
export type EndpointClass = 'read' | 'write' | 'unauthenticated';

const WINDOW_MS = 60_000;
const LOG_EVERY_MS = 10_000;
/**
 * A replica may take at most this share of the budget still free as a lease; the rest stays
 * for the others. The most a lease can lend early is what it leaves unused (1% of what was free).
 */
const LEASE_SHARE = 0.01;
/** And never more than this many requests at once, so one lease covers tens of milliseconds of load. */
const MAX_LEASE = 500;
/** Principals whose lease is remembered; past this the oldest is forgotten (it costs one round trip). */
const MAX_TRACKED = 10_000;

/**
 * Sliding-window estimate in one round trip: the current minute's counter is raised by the
 * requests asked for and the previous minute's read; the caller weighs the previous one by how
 * much of it still overlaps.
 */
const HIT_SCRIPT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
return {current, previous}
`;

type RedisWithHit = Redis & {
  rateLimitHit(current: string, previous: string, ttlMs: number, count: number): Promise<[number, number]>;
};

export interface RateDecision {
  readonly allowed: boolean;
  readonly retryAfterSeconds: number;
}

/**
 * Request numbers this replica has counted in Redis but not used yet, within one window: the
 * requests `next`..`last` of the window are this replica's to admit or refuse.
 */
interface Lease {
  readonly window: number;
  next: number;
  readonly last: number;
  /** The previous window's count when the lease was taken. */
  readonly previous: number;
}

/**
 * Per principal and endpoint class, counted in Redis so every gateway replica spends one budget.
 *
 * A request normally costs one Redis round trip. A principal far from its limit is served from a
 * lease instead: the replica counts a block of requests in Redis at once (at most 1% of the
 * budget still free, at most 500) and admits them locally, so a busy client costs one round trip
 * per block. Near the limit the block shrinks to one request and the count is exact across
 * replicas again; at worst a principal is refused 1% of its free budget early, never admitted
 * beyond its limit.
 *
 * If Redis cannot answer the request is let through (and logged): losing the limiter must not
 * take the API down.
 */
export class RateLimiter {
  private lastWarning = 0;
  private readonly redis: RedisWithHit;
  private readonly leases = new Map<string, Lease>();
  /** One lease request in flight per principal, so a burst does not take a block per request. */
  private readonly leasing = new Map<string, Promise<unknown>>();

  constructor(
    redis: Redis,
    private readonly limits: Record<EndpointClass, number>,
    private readonly logger: Logger,
  ) {
    redis.defineCommand('rateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  /** Decides from this replica's lease when it has one, without waiting: the common case of a busy client. */
  hitLocally(identity: string, endpointClass: EndpointClass, now = Date.now()): RateDecision | undefined {
    return this.fromLease(`${endpointClass}:${identity}`, this.limits[endpointClass], now);
  }

  async hit(identity: string, endpointClass: EndpointClass, now = Date.now()): Promise<RateDecision> {
    const key = `${endpointClass}:${identity}`;
    const limit = this.limits[endpointClass];
    const window = Math.floor(now / WINDOW_MS);
    for (;;) {
      const local = this.fromLease(key, limit, now);
      if (local) return local;
      const size = leaseSize(this.leases.get(key), window, limit, now);
      const inFlight = this.leasing.get(key);
      if (size === 1 || !inFlight) return this.take(key, window, size, limit, now);
      await inFlight;
    }
  }

  private fromLease(key: string, limit: number, now: number): RateDecision | undefined {
    const lease = this.leases.get(key);
    if (!lease || lease.window !== Math.floor(now / WINDOW_MS) || lease.next > lease.last) return undefined;
    return decide(lease.next++, lease.previous, limit, now);
  }

  /** Counts `size` requests in Redis, decides this one and keeps the rest as the lease. */
  private async take(key: string, window: number, size: number, limit: number, now: number): Promise<RateDecision> {
    const prefix = `rl:${key}:`;
    const counting = this.redis.rateLimitHit(prefix + window, prefix + (window - 1), WINDOW_MS * 2, size);
    if (size > 1) {
      const done = counting.catch(() => undefined).finally(() => this.leasing.delete(key));
      this.leasing.set(key, done);
    }
    let total: number;
    let previous: number;
    try {
      [total, previous] = await counting;
    } catch (error) {
      this.warn(error);
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const first = total - size + 1;
    this.remember(key, { window, next: first + 1, last: total, previous });
    return decide(first, previous, limit, now);
  }

  private remember(key: string, lease: Lease): void {
    const known = this.leases.get(key);
    // A single-request count that comes back after a block was leased must not drop the block.
    if (known && known.window === lease.window && known.next <= known.last && lease.next > lease.last) return;
    this.leases.delete(key);
    if (this.leases.size >= MAX_TRACKED) {
      const oldest = this.leases.keys().next().value;
      if (oldest !== undefined) this.leases.delete(oldest);
    }
    this.leases.set(key, lease);
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < LOG_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'rate limiter cannot reach Redis; letting requests through');
  }
}

function overlapOf(now: number): number {
  return 1 - (now % WINDOW_MS) / WINDOW_MS;
}

/** The n-th request of the window is admitted while the sliding estimate stays within the limit. */
function decide(requestNumber: number, previous: number, limit: number, now: number): RateDecision {
  if (requestNumber + previous * overlapOf(now) <= limit) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000)) };
}

/** How many requests to count at once: one, unless the last count showed plenty of budget free. */
function leaseSize(lease: Lease | undefined, window: number, limit: number, now: number): number {
  if (!lease || lease.window !== window) return 1;
  const free = limit - (lease.last + lease.previous * overlapOf(now));
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(free * LEASE_SHARE)));
}

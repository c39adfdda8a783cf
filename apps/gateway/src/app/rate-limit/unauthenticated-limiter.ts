import type { RateDecision, RateLimiter } from './rate-limiter.js';

/** Addresses remembered as over budget; past this the oldest is forgotten (it costs one more count). */
const MAX_BLOCKED = 10_000;

/**
 * The budget of a client address for requests that carry no working credential (none, a bad one,
 * an unknown or revoked key), counted in Redis like the principals' budgets, so every replica
 * spends one. While an address is over it, this replica refuses its unverified credentials with 429
 * before verifying them: a flood of random keys costs no identity lookups and no signature checks.
 */
export class UnauthenticatedLimiter {
  /** Address -> until when it stays refused here. */
  private readonly blocked = new Map<string, number>();

  constructor(private readonly limiter: RateLimiter) {}

  /** The refusal of an address known to be over its budget, without waiting; undefined otherwise. */
  refusal(address: string, now = Date.now()): RateDecision | undefined {
    const until = this.blocked.get(address);
    if (until === undefined) return undefined;
    if (until <= now) {
      this.blocked.delete(address);
      return undefined;
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  /** Counts one request without a working credential; a refusal is remembered until the budget frees up. */
  async count(address: string, now = Date.now()): Promise<RateDecision> {
    const decision = await this.limiter.hit(address, 'unauthenticated', now);
    if (!decision.allowed) {
      this.blocked.delete(address);
      if (this.blocked.size >= MAX_BLOCKED) this.blocked.delete(this.blocked.keys().next().value as string);
      this.blocked.set(address, now + decision.retryAfterSeconds * 1000);
    }
    return decision;
  }
}

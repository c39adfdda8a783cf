import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { freePort, TEST_REDIS_URL } from '@service/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { type RateDecision, RateLimiter } from './rate-limiter.js';
import { UnauthenticatedLimiter } from './unauthenticated-limiter.js';

const silent = pino({ level: 'silent' });
/** A fixed instant 10 s into a minute, so no test straddles a window boundary. */
const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

const clients: Redis[] = [];
function redis(url = TEST_REDIS_URL): Redis {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: false, retryStrategy: () => null });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

async function ready(client: Redis): Promise<Redis> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

/** Counts the round trips a limiter makes to Redis. */
function countingLimiter(limit: number, client: Redis): { limiter: RateLimiter; roundTrips: () => number } {
  const limiter = new RateLimiter(client, { read: limit, write: limit, unauthenticated: 1 }, silent);
  const counted = client as Redis & { rateLimitHit: (...args: unknown[]) => Promise<unknown> };
  const original = counted.rateLimitHit.bind(client);
  let calls = 0;
  counted.rateLimitHit = (...args) => {
    calls += 1;
    return original(...args);
  };
  return { limiter, roundTrips: () => calls };
}

const allowed = (decisions: RateDecision[]) => decisions.filter((decision) => decision.allowed).length;

afterAll(() => {
  for (const client of clients) client.disconnect();
});

describe('RateLimiter', () => {
  it('counts a small budget exactly across two replicas and refuses the next request with Retry-After', async () => {
    const identity = randomUUID();
    const a = new RateLimiter(await ready(redis()), { read: 12, write: 1, unauthenticated: 1 }, silent);
    const b = new RateLimiter(await ready(redis()), { read: 12, write: 1, unauthenticated: 1 }, silent);
    const decisions: RateDecision[] = [];
    for (let index = 0; index < 12; index += 1) decisions.push(await (index % 2 ? a : b).hit(identity, 'read', NOW));
    expect(allowed(decisions)).toBe(12);
    expect(await a.hit(identity, 'read', NOW)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect((await b.hit(identity, 'read', NOW)).allowed).toBe(false);
    // Another class of the same principal has a budget of its own.
    expect((await a.hit(identity, 'write', NOW)).allowed).toBe(true);
    expect((await b.hit(identity, 'write', NOW)).allowed).toBe(false);
  });

  it('serves a principal far from its limit from leases: few round trips, the same answers', async () => {
    const identity = randomUUID();
    const { limiter, roundTrips } = countingLimiter(1_000_000, await ready(redis()));
    const decisions: RateDecision[] = [];
    for (let index = 0; index < 2_000; index += 1) decisions.push(await limiter.hit(identity, 'read', NOW));
    expect(allowed(decisions)).toBe(2_000);
    expect(roundTrips()).toBeLessThanOrEqual(6);
  });

  it('takes one lease at a time for a burst of concurrent requests', async () => {
    const identity = randomUUID();
    const { limiter, roundTrips } = countingLimiter(1_000_000, await ready(redis()));
    await limiter.hit(identity, 'read', NOW);
    const decisions = await Promise.all(Array.from({ length: 400 }, () => limiter.hit(identity, 'read', NOW)));
    expect(allowed(decisions)).toBe(400);
    expect(roundTrips()).toBeLessThanOrEqual(4);
  });

  it('never admits more than the limit across replicas, and refuses at most 1% of it early', async () => {
    const identity = randomUUID();
    const limit = 20_000;
    const replicas = [0, 1, 2].map(() => new RateLimiter(redis(), { read: limit, write: 1, unauthenticated: 1 }, silent));
    await Promise.all(clients.map(ready));
    const decisions: RateDecision[] = [];
    // Three replicas, each with 20 concurrent clients, send 30,000 requests in all.
    await Promise.all(
      replicas.flatMap((replica) =>
        Array.from({ length: 20 }, async () => {
          for (let index = 0; index < 500; index += 1) decisions.push(await replica.hit(identity, 'read', NOW));
        }),
      ),
    );
    expect(decisions).toHaveLength(30_000);
    expect(allowed(decisions)).toBeLessThanOrEqual(limit);
    expect(allowed(decisions)).toBeGreaterThanOrEqual(limit * 0.99);
  });

  it('lends out at most 1% of the free budget: an idle replica holding a lease costs the others little', async () => {
    const identity = randomUUID();
    const limit = 20_000;
    const idle = new RateLimiter(await ready(redis()), { read: limit, write: 1, unauthenticated: 1 }, silent);
    const busy = new RateLimiter(await ready(redis()), { read: limit, write: 1, unauthenticated: 1 }, silent);
    for (let index = 0; index < 100; index += 1) expect((await idle.hit(identity, 'read', NOW)).allowed).toBe(true);
    let admitted = 0;
    while ((await busy.hit(identity, 'read', NOW)).allowed) admitted += 1;
    expect(100 + admitted).toBeLessThanOrEqual(limit);
    expect(100 + admitted).toBeGreaterThanOrEqual(limit * 0.99);
  });

  it('weighs the previous minute by how much of it still overlaps', async () => {
    const identity = randomUUID();
    const limiter = new RateLimiter(await ready(redis()), { read: 10, write: 1, unauthenticated: 1 }, silent);
    const previousMinute = NOW - 60_000;
    for (let index = 0; index < 10; index += 1) expect((await limiter.hit(identity, 'read', previousMinute)).allowed).toBe(true);
    // 10 s into the minute, 5/6 of the previous one still counts: 10 * 5/6 = 8.3, so one more fits.
    expect((await limiter.hit(identity, 'read', NOW)).allowed).toBe(true);
    expect((await limiter.hit(identity, 'read', NOW)).allowed).toBe(false);
  });

  it('lets requests through when Redis cannot be reached (fails open)', async () => {
    const port = await freePort();
    const limiter = new RateLimiter(redis(`redis://127.0.0.1:${port}`), { read: 1, write: 1, unauthenticated: 1 }, silent);
    const decisions = await Promise.all(Array.from({ length: 5 }, () => limiter.hit(randomUUID(), 'read', NOW)));
    expect(decisions).toEqual(Array(5).fill({ allowed: true, retryAfterSeconds: 0 }));
  });
});

describe('UnauthenticatedLimiter', () => {
  it('spends one budget per client address across replicas, then refuses the address here without asking Redis', async () => {
    const address = `2001:db8::${randomUUID().slice(0, 4)}`;
    const replica = async () =>
      new UnauthenticatedLimiter(new RateLimiter(await ready(redis()), { read: 1, write: 1, unauthenticated: 3 }, silent));
    const [a, b] = [{ guard: await replica() }, { guard: await replica() }];
    const decisions = [await a.guard.count(address, NOW), await b.guard.count(address, NOW), await a.guard.count(address, NOW)];
    expect(allowed(decisions)).toBe(3);
    expect(a.guard.refusal(address, NOW)).toBeUndefined();
    expect(await b.guard.count(address, NOW)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(b.guard.refusal(address, NOW)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(b.guard.refusal(address, NOW + 49_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(b.guard.refusal(address, NOW + 50_000)).toBeUndefined();
    // The other replica learns it on its next count; another address has a budget of its own.
    expect((await a.guard.count(address, NOW)).allowed).toBe(false);
    expect(a.guard.refusal(`${address}1`, NOW)).toBeUndefined();
    expect((await a.guard.count(`${address}1`, NOW)).allowed).toBe(true);
  });
});

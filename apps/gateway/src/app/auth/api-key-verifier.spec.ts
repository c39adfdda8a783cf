import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { API_KEY_HASH_FORMAT, type ApiKeyPrincipal, apiKeyHashText } from '@service/contracts';
import { ServiceError } from '@service/errors';
import {
  API_KEY_CACHE_TTL_MS,
  API_KEY_NEGATIVE_TTL_MS,
  API_KEY_USE_REPORT_MS,
  ApiKeyVerifier,
  type KeyAuthority,
  type KeyBroadcasts,
  identityAuthority,
  MAX_CONCURRENT_LOOKUPS,
} from './api-key-verifier.js';
import type { SubjectClient } from '@service/nats';

const KEY = `service_sandbox_${'a'.repeat(43)}`;
const OTHER = `service_sandbox_${'b'.repeat(43)}`;
const KEY_ID = '0b8f7a4e-0000-4000-8000-000000000001';

function setUp(answer: (key: string) => Promise<ApiKeyPrincipal>) {
  const authority = { authenticate: jest.fn<KeyAuthority['authenticate']>(answer) };
  let evict: (keyId: string) => void = () => undefined;
  const broadcasts = {
    onRevoked: (handler: (keyId: string) => void) => void (evict = handler),
    reportUse: jest.fn<KeyBroadcasts['reportUse']>(),
  };
  const verifier = new ApiKeyVerifier(authority, broadcasts);
  return { verifier, authority, broadcasts, revoke: (keyId: string) => evict(keyId) };
}

const valid =
  (expiresAt: string | null = null) =>
  async (key: string): Promise<ApiKeyPrincipal> => {
    if (key !== KEY) throw new ServiceError('unauthenticated', 'The API key is invalid, expired or revoked.');
    return { keyId: KEY_ID, orgId: 'org_a', role: 'admin', expiresAt };
  };

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-11-24T10:00:00.000Z') });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('ApiKeyVerifier', () => {
  it('turns a key into the principal key_<id> of its organization and role, and remembers it', async () => {
    const { verifier, authority } = setUp(valid());
    expect(verifier.recall(KEY)).toBeUndefined();
    await expect(verifier.verify(KEY)).resolves.toEqual({ principalId: `key_${KEY_ID}`, orgId: 'org_a', role: 'admin' });
    expect(verifier.recall(KEY)).toEqual({ principalId: `key_${KEY_ID}`, orgId: 'org_a', role: 'admin' });
    jest.advanceTimersByTime(API_KEY_CACHE_TTL_MS - 1);
    expect(verifier.recall(KEY)).toBeDefined();
    jest.advanceTimersByTime(1);
    expect(verifier.recall(KEY)).toBeUndefined();
    expect(authority.authenticate).toHaveBeenCalledTimes(1);
  });

  it('never remembers a key past its expiry', async () => {
    const { verifier } = setUp(valid(new Date(Date.now() + 2_000).toISOString()));
    await verifier.verify(KEY);
    jest.advanceTimersByTime(2_000);
    expect(verifier.recall(KEY)).toBeUndefined();
  });

  it('remembers a key that does not work briefly, with one answer, and asks once for concurrent requests', async () => {
    const { verifier, authority } = setUp(valid());
    const results = await Promise.allSettled([verifier.verify(OTHER), verifier.verify(OTHER)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await expect(verifier.verify(OTHER)).rejects.toMatchObject({
      code: 'unauthenticated',
      message: 'The API key is invalid, expired or revoked.',
    });
    expect(authority.authenticate).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(API_KEY_NEGATIVE_TTL_MS);
    await expect(verifier.verify(OTHER)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(authority.authenticate).toHaveBeenCalledTimes(2);
  });

  it('refuses a key of an organization id outside the format (the internal "every organization" *), as any key that does not work', async () => {
    for (const orgId of ['*', 'org.a', 'org >']) {
      const { verifier } = setUp(async () => ({ keyId: KEY_ID, orgId, role: 'owner', expiresAt: null }));
      await expect(verifier.verify(KEY)).rejects.toMatchObject({
        code: 'unauthenticated',
        message: 'The API key is invalid, expired or revoked.',
      });
      expect(verifier.recall(KEY)).toBeUndefined();
    }
  });

  it('refuses a malformed or oversized value without asking', async () => {
    const { verifier, authority } = setUp(valid());
    for (const key of ['service_', `service_sandbox_${'a'.repeat(200)}`, 'service_sandbox_a b', 'service_sandbox_é']) {
      await expect(verifier.verify(key)).rejects.toMatchObject({
        code: 'unauthenticated',
        message: 'The API key is invalid, expired or revoked.',
      });
    }
    expect(authority.authenticate).not.toHaveBeenCalled();
  });

  it('does not remember an unavailable identity service: the 503 goes through', async () => {
    const { verifier, authority } = setUp(() => Promise.reject(new ServiceError('service_temporarily_unavailable', 'later')));
    await expect(verifier.verify(KEY)).rejects.toMatchObject({ code: 'service_temporarily_unavailable' });
    await expect(verifier.verify(KEY)).rejects.toMatchObject({ code: 'service_temporarily_unavailable' });
    expect(authority.authenticate).toHaveBeenCalledTimes(2);
  });

  it('evicts a revoked key at once and does not let a lookup in flight put it back', async () => {
    let release: () => void = () => undefined;
    const { verifier, revoke } = setUp(async (key) => {
      await new Promise<void>((resolve) => (release = resolve));
      return valid()(key);
    });
    const first = verifier.verify(KEY);
    release();
    await first;
    expect(verifier.recall(KEY)).toBeDefined();
    revoke(KEY_ID);
    expect(verifier.recall(KEY)).toBeUndefined();
    // A lookup answered before the revocation committed arrives after the broadcast.
    const late = verifier.verify(KEY);
    release();
    await expect(late).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('reports a use at most once a minute per key', async () => {
    const { verifier, broadcasts } = setUp(valid());
    await verifier.verify(KEY);
    for (let index = 0; index < 5; index++) verifier.recall(KEY);
    expect(broadcasts.reportUse).toHaveBeenCalledTimes(1);
    expect(broadcasts.reportUse).toHaveBeenCalledWith(KEY_ID);
    jest.advanceTimersByTime(API_KEY_USE_REPORT_MS - API_KEY_CACHE_TTL_MS);
    await verifier.verify(KEY);
    expect(broadcasts.reportUse).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(API_KEY_CACHE_TTL_MS);
    await verifier.verify(KEY);
    expect(broadcasts.reportUse).toHaveBeenCalledTimes(2);
  });

  it('keeps a working key however many keys that do not work arrive after it', async () => {
    const { verifier, authority } = setUp(valid());
    await verifier.verify(KEY);
    for (let index = 0; index < 12_000; index += 1) {
      await expect(verifier.verify(`service_sandbox_flood${index}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    }
    expect(verifier.recall(KEY)).toEqual({ principalId: `key_${KEY_ID}`, orgId: 'org_a', role: 'admin' });
    expect(authority.authenticate).toHaveBeenCalledTimes(12_001);
  });

  it(`asks the identity service at most ${MAX_CONCURRENT_LOOKUPS} lookups at a time; the others wait their turn`, async () => {
    const pending: (() => void)[] = [];
    const { verifier, authority } = setUp(
      (key) => new Promise((_, reject) => pending.push(() => reject(new ServiceError('unauthenticated', `unknown ${key}`)))),
    );
    const keys = Array.from({ length: MAX_CONCURRENT_LOOKUPS + 8 }, (_, index) => `service_sandbox_waiting${index}`);
    const results = Promise.allSettled(keys.map((key) => verifier.verify(key)));
    await jest.advanceTimersByTimeAsync(0);
    expect(authority.authenticate).toHaveBeenCalledTimes(MAX_CONCURRENT_LOOKUPS);
    for (let round = 0; pending.length > 0 && round < 100; round += 1) {
      pending.splice(0).forEach((answer) => answer());
      await jest.advanceTimersByTimeAsync(0);
    }
    expect(authority.authenticate).toHaveBeenCalledTimes(keys.length);
    expect((await results).every((result) => result.status === 'rejected')).toBe(true);
  });
});

describe('identityAuthority', () => {
  const pepper = Buffer.alloc(32, 7);
  const setUpAuthority = () => {
    const request = jest.fn<(subject: string, body: unknown) => Promise<ApiKeyPrincipal>>(async () => ({
      keyId: KEY_ID,
      orgId: 'org_a',
      role: 'admin',
      expiresAt: null,
    }));
    const authority = identityAuthority({ request } as unknown as SubjectClient, { pepper, environment: 'sandbox' });
    return { authority, request };
  };

  it("sends identity-service the key's hash under the pepper, never the key", async () => {
    const { authority, request } = setUpAuthority();
    await authority.authenticate(KEY);
    const [subject, body] = request.mock.calls[0]!;
    expect(subject).toBe('identity.api-keys.authenticate');
    expect(JSON.stringify(body)).not.toContain(KEY);
    expect(body).toMatchObject({ keyHash: apiKeyHashText(KEY, pepper) });
    expect((body as { keyHash: string }).keyHash).toMatch(API_KEY_HASH_FORMAT);
  });

  it('refuses a key of another environment without asking', async () => {
    const { authority, request } = setUpAuthority();
    await expect(authority.authenticate(`service_prod_${'a'.repeat(43)}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(request).not.toHaveBeenCalled();
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SUBJECTS } from '@service/contracts';
import { connectNats, NatsRequester, SubjectClient } from '@service/nats';
import { callGateway, type HttpReply, startTestSystem, type TestSystem } from '@service/testing';

/** Two gateway replicas and identity-service, as built processes on the real PostgreSQL, NATS and Redis. */
let system: TestSystem;
let gatewayA: string;
let gatewayB: string;
/** Every key this run made, to grep the logs for at the end. */
const secrets: string[] = [];

beforeAll(async () => {
  system = await startTestSystem({
    services: ['identity'],
    gateways: 2,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '100000', RATE_LIMIT_WRITE_PER_MINUTE: '100000' },
    serviceEnv: { identity: { IDENTITY_EXPIRY_SWEEP_MS: '100' } },
  });
  [gatewayA, gatewayB] = system.gateways.map((gateway) => gateway.url) as [string, string];
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const tokenOf = (org: string, role = 'owner') => system.auth.token({ org, role, sub: `user_${org}_${role}` });
const call = <T = any>(credential: string | null, method: string, path: string, body?: unknown, url = gatewayA): Promise<HttpReply<T>> =>
  callGateway<T>(url, credential, method, path, body);
const ping = (credential: string, url = gatewayA) => call(credential, 'GET', '/v2/system/ping', undefined, url);

/** A new key through the API (201), remembered for the redaction check. */
async function createKey(credential: string, body: object = {}): Promise<any> {
  const reply = await call(credential, 'POST', '/v2/api-keys', { name: 'ci', role: 'admin', ...body });
  expect(reply.status).toBe(201);
  secrets.push(reply.body.key);
  return reply.body;
}

/** Polls until `check` holds; returns the milliseconds it took. */
async function within(timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const UNAUTHENTICATED = {
  status: 401,
  body: { error: 'Unauthorized', message: 'The API key is invalid, expired or revoked.', code: 'unauthenticated' },
};
const KEY_FORMAT = /^service_sandbox_[0-9A-Za-z]{43}$/;

describe('creating and using a key', () => {
  it('creates a key shown once, which then authenticates as its organization and role', async () => {
    const org = freshOrg();
    const owner = await tokenOf(org);
    const created = await createKey(owner, { name: 'Ledger sync', role: 'owner' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ledger sync',
      role: 'owner',
      key: expect.stringMatching(KEY_FORMAT),
      last4: created.key.slice(-4),
      createdAt: expect.any(String),
      expiresAt: null,
    });
    expect(await ping(created.key)).toEqual({ status: 200, body: { message: 'pong' } });
    expect((await ping(created.key, gatewayB)).status).toBe(200);
    // The key acts for its own organization: it manages that organization's keys.
    const listed = await call(created.key, 'GET', '/v2/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((key: any) => key.id)).toEqual([created.id]);
  });

  it('never shows the secret again: list and get carry last4 and lastUsedAt only', async () => {
    const org = freshOrg();
    const owner = await tokenOf(org);
    const created = await createKey(owner);
    const got = await call(owner, 'GET', `/v2/api-keys/${created.id}`);
    expect(got).toEqual({
      status: 200,
      body: {
        id: created.id,
        name: 'ci',
        role: 'admin',
        last4: created.last4,
        createdAt: created.createdAt,
        expiresAt: null,
        lastUsedAt: null,
      },
    });
    const listed = await call(owner, 'GET', '/v2/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
    expect(JSON.stringify(got.body)).not.toContain(created.key.slice(16, 40));
    expect(listed.body.data[0]).not.toHaveProperty('key');
  });

  it('records lastUsedAt off the request path once the key is used', async () => {
    const owner = await tokenOf(freshOrg());
    const created = await createKey(owner);
    expect((await ping(created.key)).status).toBe(200);
    await within(5_000, async () => (await call(owner, 'GET', `/v2/api-keys/${created.id}`)).body.lastUsedAt !== null);
    const { lastUsedAt } = (await call(owner, 'GET', `/v2/api-keys/${created.id}`)).body;
    expect(Date.parse(lastUsedAt)).toBeGreaterThan(Date.parse(created.createdAt) - 1);
  });

  it('lists newest first, page by page, in the page envelope', async () => {
    const owner = await tokenOf(freshOrg());
    const made = [];
    for (let index = 0; index < 3; index++) made.push(await createKey(owner, { name: `k${index}` }));
    const first = await call(owner, 'GET', '/v2/api-keys?limit=2');
    expect(first.body.data.map((key: any) => key.name)).toEqual(['k2', 'k1']);
    const second = await call(owner, 'GET', `/v2/api-keys?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: made[0].id })], nextCursor: null });
  });

  it('validates the body at the gateway', async () => {
    const owner = await tokenOf(freshOrg());
    for (const body of [
      { role: 'admin' },
      { name: '', role: 'admin' },
      { name: 'x', role: 'root' },
      { name: 'x', role: 'admin', expiresAt: 'tomorrow' },
    ]) {
      expect((await call(owner, 'POST', '/v2/api-keys', body)).body).toEqual({ error: expect.any(String), code: 'validation_error' });
    }
    const past = await call(owner, 'POST', '/v2/api-keys', { name: 'x', role: 'admin', expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(past).toEqual({ status: 400, body: { error: 'expiresAt must be in the future.', code: 'validation_error' } });
    const created = await createKey(owner);
    const roll = await call(owner, 'POST', `/v2/api-keys/${created.id}/roll`, { expiresInSeconds: 604_801 });
    expect(roll.body.code).toBe('validation_error');
    expect((await call(owner, 'GET', '/v2/api-keys/not-a-uuid')).body.code).toBe('validation_error');
  });
});

describe('roles and organizations', () => {
  it('refuses members, by token or key, on every route with 403 forbidden', async () => {
    const org = freshOrg();
    const owner = await tokenOf(org);
    const target = await createKey(owner);
    const memberKey = (await createKey(owner, { role: 'member' })).key;
    for (const member of [await tokenOf(org, 'member'), memberKey]) {
      expect((await ping(member)).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/v2/api-keys', { name: 'x', role: 'member' }],
        ['GET', '/v2/api-keys'],
        ['GET', `/v2/api-keys/${target.id}`],
        ['DELETE', `/v2/api-keys/${target.id}`],
        ['POST', `/v2/api-keys/${target.id}/roll`, {}],
      ] as const) {
        expect(await call(member, method, path, body)).toEqual({ status: 403, body: { error: expect.any(String), code: 'forbidden' } });
      }
    }
  });

  it('lets an admin make admin and member keys but not an owner key, by token or key', async () => {
    const org = freshOrg();
    const admin = await tokenOf(org, 'admin');
    const adminKey = (await createKey(admin, { role: 'admin' })).key;
    await createKey(adminKey, { role: 'member' });
    for (const credential of [admin, adminKey]) {
      expect(await call(credential, 'POST', '/v2/api-keys', { name: 'x', role: 'owner' })).toEqual({
        status: 403,
        body: { error: 'Only an organization owner may create or manage an owner key.', code: 'forbidden' },
      });
    }
    const ownerKey = await createKey(await tokenOf(org), { role: 'owner' });
    expect((await call(admin, 'DELETE', `/v2/api-keys/${ownerKey.id}`)).status).toBe(403);
    expect((await call(admin, 'POST', `/v2/api-keys/${ownerKey.id}/roll`, {})).status).toBe(403);
    expect((await ping(ownerKey.key)).status).toBe(200);
  });

  it("answers 404 for another organization's key and never lists it", async () => {
    const mine = await createKey(await tokenOf(freshOrg()));
    const stranger = await tokenOf(freshOrg());
    const notFound = { status: 404, body: { error: 'API key not found.', code: 'api_key_not_found' } };
    expect(await call(stranger, 'GET', `/v2/api-keys/${mine.id}`)).toEqual(notFound);
    expect(await call(stranger, 'DELETE', `/v2/api-keys/${mine.id}`)).toEqual(notFound);
    expect(await call(stranger, 'POST', `/v2/api-keys/${mine.id}/roll`, {})).toEqual(notFound);
    expect((await call(stranger, 'GET', '/v2/api-keys')).body).toEqual({ data: [], nextCursor: null });
    expect((await ping(mine.key)).status).toBe(200);
  });
});

describe('revocation, rolling and expiry', () => {
  it('revokes a key on every gateway replica within a second', async () => {
    const owner = await tokenOf(freshOrg());
    const created = await createKey(owner);
    // Both replicas have it cached.
    expect((await ping(created.key, gatewayA)).status).toBe(200);
    expect((await ping(created.key, gatewayB)).status).toBe(200);
    expect(await call(owner, 'DELETE', `/v2/api-keys/${created.id}`)).toEqual({ status: 200, body: { id: created.id, revoked: true } });
    const elapsed = await within(1_000, async () => (await ping(created.key, gatewayB)).status === 401);
    expect(elapsed).toBeLessThan(1_000);
    expect(await ping(created.key, gatewayA)).toEqual(UNAUTHENTICATED);
    expect(await call(owner, 'GET', `/v2/api-keys/${created.id}`)).toMatchObject({ status: 404 });
    expect(await call(owner, 'DELETE', `/v2/api-keys/${created.id}`)).toMatchObject({ status: 404 });
  });

  it('rolls a key: a new secret of the same name and role, the old one refused at once by default', async () => {
    const owner = await tokenOf(freshOrg());
    const old = await createKey(owner, { name: 'deploy', role: 'member' });
    expect((await ping(old.key, gatewayB)).status).toBe(200);
    const rolled = await call(owner, 'POST', `/v2/api-keys/${old.id}/roll`);
    expect(rolled.status).toBe(201);
    secrets.push(rolled.body.key);
    expect(rolled.body).toMatchObject({ name: 'deploy', role: 'member', key: expect.stringMatching(KEY_FORMAT), expiresAt: null });
    expect(rolled.body.id).not.toBe(old.id);
    expect((await ping(rolled.body.key, gatewayB)).status).toBe(200);
    await within(1_000, async () => (await ping(old.key, gatewayB)).status === 401);
    expect((await call(owner, 'GET', '/v2/api-keys')).body.data.map((key: any) => key.id)).toEqual([rolled.body.id]);
  });

  it('keeps a rolled key working through its grace period, then refuses it everywhere', async () => {
    const owner = await tokenOf(freshOrg());
    const old = await createKey(owner);
    expect((await ping(old.key, gatewayB)).status).toBe(200);
    const rolled = await call(owner, 'POST', `/v2/api-keys/${old.id}/roll`, { expiresInSeconds: 2 });
    secrets.push(rolled.body.key);
    expect((await call(owner, 'GET', `/v2/api-keys/${old.id}`)).body.expiresAt).toEqual(expect.any(String));
    expect((await ping(old.key, gatewayA)).status).toBe(200);
    expect((await ping(rolled.body.key, gatewayA)).status).toBe(200);
    await within(4_000, async () => (await ping(old.key, gatewayB)).status === 401);
    expect(await ping(old.key, gatewayA)).toEqual(UNAUTHENTICATED);
    expect((await ping(rolled.body.key, gatewayB)).status).toBe(200);
  });

  it('rolls a key once: the successor keeps its expiry, and a second roll during the grace period is refused', async () => {
    const owner = await tokenOf(freshOrg());
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const old = await createKey(owner, { expiresAt });
    const rolled = await call(owner, 'POST', `/v2/api-keys/${old.id}/roll`, { expiresInSeconds: 600 });
    expect(rolled.status).toBe(201);
    secrets.push(rolled.body.key);
    expect(rolled.body.expiresAt).toBe(expiresAt);
    expect((await ping(old.key)).status).toBe(200);
    const again = await call(owner, 'POST', `/v2/api-keys/${old.id}/roll`, { expiresInSeconds: 600 });
    if (again.body.key) secrets.push(again.body.key);
    expect(again).toEqual({ status: 404, body: { error: 'API key not found, expired or already rolled.', code: 'api_key_not_found' } });
    const concurrent = await createKey(owner);
    const replies = await Promise.all(
      [0, 1, 2].map(() => call(owner, 'POST', `/v2/api-keys/${concurrent.id}/roll`, { expiresInSeconds: 600 })),
    );
    for (const reply of replies) if (reply.body.key) secrets.push(reply.body.key);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 404, 404]);
    const ids = (await call(owner, 'GET', '/v2/api-keys')).body.data.map((key: any) => key.id);
    expect(ids).toHaveLength(4);
    expect(ids).toEqual(expect.arrayContaining([old.id, rolled.body.id, concurrent.id]));
  });

  it('refuses to roll an expired key, which would otherwise mint a key that never expires', async () => {
    const owner = await tokenOf(freshOrg());
    const expiring = await createKey(owner, { expiresAt: new Date(Date.now() + 1_000).toISOString() });
    await within(4_000, async () => (await ping(expiring.key)).status === 401);
    const rolled = await call(owner, 'POST', `/v2/api-keys/${expiring.id}/roll`);
    if (rolled.body.key) secrets.push(rolled.body.key);
    expect(rolled).toMatchObject({ status: 404, body: { code: 'api_key_not_found' } });
    expect((await call(owner, 'GET', '/v2/api-keys')).body.data.map((key: any) => key.id)).toEqual([expiring.id]);
  });

  it('stops a key at its expiry', async () => {
    const owner = await tokenOf(freshOrg());
    const created = await createKey(owner, { expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect((await ping(created.key)).status).toBe(200);
    await within(4_000, async () => (await ping(created.key)).status === 401);
    expect(await ping(created.key, gatewayB)).toEqual(UNAUTHENTICATED);
  });
});

describe('refusals and redaction', () => {
  it('answers unknown, revoked, expired and other-environment keys with the same 401 body', async () => {
    const owner = await tokenOf(freshOrg());
    const revoked = await createKey(owner);
    await call(owner, 'DELETE', `/v2/api-keys/${revoked.id}`);
    const expiring = await createKey(owner, { expiresAt: new Date(Date.now() + 500).toISOString() });
    await within(4_000, async () => (await ping(expiring.key)).status === 401);
    const random = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '')}${'Q'.repeat(11)}`;
    const production = random('service_prod_');
    const unknown = random('service_sandbox_');
    expect(unknown).toMatch(KEY_FORMAT);
    const refused = [unknown, revoked.key, expiring.key, production, `service_prod_${revoked.key.slice('service_sandbox_'.length)}`];
    for (const key of refused) {
      expect(await ping(key)).toEqual(UNAUTHENTICATED);
      expect(await ping(key, gatewayB)).toEqual(UNAUTHENTICATED);
    }
  });

  it('writes no key into any log line of the gateways or the service, even for refused and malformed keys', async () => {
    const owner = await tokenOf(freshOrg());
    const created = await createKey(owner);
    const accessLines = () => system.gateways[0]!.process.lines.filter((line) => line.includes('"durationMs":')).length;
    const before = accessLines();
    await ping(created.key);
    await ping(`${created.key}x`);
    await call(`${created.key} trailing`, 'GET', '/v2/api-keys');
    await call(created.key, 'GET', '/v2/no-such-route');
    await call(created.key, 'POST', '/v2/api-keys', '{not json');
    // The access log writes its lines in batches (every 20 ms): wait for the five.
    await within(2_000, async () => accessLines() >= before + 5);
    const lines = [...system.gateways.flatMap((gateway) => gateway.process.lines), ...(system.services.get('identity')?.lines ?? [])];
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((line) => line.includes('"status":401'))).toBe(true);
    for (const secret of secrets) {
      const random = secret.slice(secret.lastIndexOf('_') + 1);
      expect(lines.filter((line) => line.includes(random))).toEqual([]);
    }
    expect(lines.filter((line) => /Bearer /i.test(line))).toEqual([]);
  });
});

describe('organization ids', () => {
  const INVALID_TOKEN = { status: 401, body: { error: 'Unauthorized', message: 'The access token is invalid.', code: 'unauthenticated' } };

  it('refuses a token whose org is not an organization id (the internal "*" of every organization, NATS subject characters)', async () => {
    for (const org of ['*', 'org.a', 'org.>', 'org a']) {
      expect(await ping(await tokenOf(org))).toEqual(INVALID_TOKEN);
      expect(await call(await tokenOf(org), 'POST', '/v2/api-keys', { name: 'ci', role: 'owner' })).toEqual(INVALID_TOKEN);
    }
    expect((await ping(await tokenOf('org-1'))).status).toBe(200);
  });

  it('makes no key for a malformed organization id, whoever asks (the operator CLI sends its request over NATS)', async () => {
    const connection = await connectNats({ url: system.natsUrl, name: 'api-keys-e2e', auth: system.nats.authOf('admin') });
    try {
      const identity = new SubjectClient(new NatsRequester(connection, 5_000));
      for (const orgId of ['*', 'org.a']) {
        const ctx = { orgId, principalId: 'operator-cli', role: 'owner' as const, requestId: randomUUID() };
        const attempt = identity.request(SUBJECTS.identity.apiKeysCreate, { ctx, name: 'all', role: 'owner' });
        const made = await attempt.catch((error: unknown) => error);
        if (!(made instanceof Error)) secrets.push((made as { key: string }).key);
        expect(made).toMatchObject({ code: 'validation_error' });
      }
    } finally {
      await connection.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents the routes with their role rules and the bearer scheme for keys and tokens', async () => {
    const document = (await call(null, 'GET', '/v2/openapi.json')).body;
    const create = document.paths['/v2/api-keys'].post;
    expect(create['x-required-roles']).toEqual(['owner', 'admin']);
    expect(create.description).toMatch(/Owners and admins only/);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(document.paths['/v2/api-keys/{id}/roll'].post.responses['201']).toBeDefined();
    expect(document.components.securitySchemes.bearer.description).toMatch(/service_sandbox_/);
  });
});
